/// Counters of what an association dropped or repaired.
public struct SCTPAssociationStats: Sendable, Equatable {
    /// Packets that failed to parse or had a bad checksum.
    public var malformedPackets = 0
    /// Packets whose verification tag did not match (RFC 9260 §8.5).
    public var badVerificationTag = 0
    /// DATA chunks received twice.
    public var duplicateDataChunks = 0
    /// DATA chunks retransmitted (T3 or fast).
    public var retransmittedChunks = 0
    /// Messages abandoned under PR-SCTP.
    public var abandonedMessages = 0
    /// Packets sent.
    public var packetsSent = 0
    /// Packets received and accepted.
    public var packetsReceived = 0
}
