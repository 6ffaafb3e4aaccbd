internal import TernCore

/// A user message waiting to be fragmented and sent (RFC 9260 §6.9).
struct OutboundMessage {
    var id: UInt64
    var streamIdentifier: UInt16
    var payloadProtocolIdentifier: UInt32
    var payload: [UInt8]
    var options: SCTPSendOptions
    /// PR-SCTP timed policy deadline.
    var expiry: Instant?
    /// Bytes already cut into DATA chunks.
    var offset = 0
    /// SSN, assigned when the first fragment is sent.
    var ssn: UInt16 = 0
}
