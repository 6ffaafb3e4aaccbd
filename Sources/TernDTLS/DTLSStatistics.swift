/// Counters of one `DTLSEndpoint`, for stats and tests.
public struct DTLSStatistics: Sendable, Equatable {
    /// Well-formed datagrams handed to OpenSSL.
    public var datagramsReceived = 0
    /// Datagrams taken with `pollTransmit`.
    public var datagramsSent = 0
    /// Datagrams that were not whole DTLS records (RFC 6347 §4.1), dropped before OpenSSL.
    public var malformedDatagramsDropped = 0
    /// Datagrams that arrived before `start` (client) or after close/failure.
    public var datagramsDroppedInWrongState = 0
    /// Retransmission timeouts that resent a flight (RFC 6347 §4.2.4).
    public var retransmissionTimeouts = 0
    /// ClientHellos sent again, byte for byte, when the ICE pair was selected before the server
    /// answered (`DTLSEndpoint.repeatUnansweredClientHello`).
    public var clientHelloRepeats = 0
    /// Application data records delivered.
    public var applicationRecordsReceived = 0
    /// Application data records sent.
    public var applicationRecordsSent = 0

    public init() {}
}
