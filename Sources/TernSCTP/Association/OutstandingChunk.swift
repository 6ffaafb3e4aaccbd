internal import TernCore

/// A DATA chunk that was sent and not yet cumulatively acknowledged (RFC 9260 §6.1, §7).
struct OutstandingChunk {
    var chunk: DataChunk
    var messageID: UInt64
    var maxRetransmits: Int?
    var expiry: Instant?
    /// Times sent (1 after the first transmission).
    var transmissions = 1
    var lastSent: Instant
    /// Acknowledged by a gap block.
    var gapAcked = false
    /// Counted in the flight size.
    var inFlight = true
    var missIndications = 0
    /// Marked for (fast or T3) retransmission.
    var needsRetransmit = false
    /// Given up on (RFC 3758 §3.5); stays until the peer's cumulative ack passes it.
    var abandoned = false

    /// Bytes counted for flight size and congestion control: the user data.
    var size: Int { chunk.userData.count }
}
