/// RFC 6525 §4.1: asks the peer to reset its incoming side of `streams` (all if empty)
/// once it has received every TSN up to `senderLastTSN`.
public struct OutgoingSSNResetRequest: Equatable, Sendable {
    /// Re-configuration Request Sequence Number.
    public var requestSequence: UInt32
    /// Re-configuration Response Sequence Number.
    public var responseSequence: UInt32
    /// Sender's Last Assigned TSN.
    public var senderLastTSN: UInt32
    /// Stream identifiers to reset (empty: all).
    public var streams: [UInt16]
    /// Creates a value from its fields.
    public init(requestSequence: UInt32, responseSequence: UInt32, senderLastTSN: UInt32, streams: [UInt16]) {
        self.requestSequence = requestSequence
        self.responseSequence = responseSequence
        self.senderLastTSN = senderLastTSN
        self.streams = streams
    }
}
