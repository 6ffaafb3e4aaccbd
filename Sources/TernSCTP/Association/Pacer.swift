internal import TernCore

/// Spreads DATA packets over the round trip instead of releasing the congestion window at once.
///
/// RFC 9260 §6.1 D bounds a burst (Max.Burst) but not how fast bursts follow each other: a
/// sender that catches up on a backlog of received SACKs answers each with Max.Burst packets,
/// back to back. A browser's UDP socket holds ~55 packets (Chromium asks for a 64 KiB receive
/// buffer), so packets sent faster than its network thread reads them are lost — and on a
/// `maxRetransmits: 0` channel, lost for good. Pacing at a multiple of the delivery rate the
/// window implies (cwnd / SRTT) keeps the ACK clock's rate while smoothing its bursts, as RFC
/// 9002 §7.7 specifies for QUIC and Linux TCP does (gain 2 in slow start, 1.25 after).
///
/// A token bucket: `depth` bytes may leave at once (Max.Burst packets), refilled at the pacing
/// rate. Sans-I/O: the caller passes the time and rate and asks when the next packet may go.
struct Pacer {
    /// Bytes that may be sent now; negative after a packet larger than what was left.
    private var budget = 0
    private var updated: Instant?

    /// Pacing gain in slow start and after (RFC 9002 §7.7 suggests 1.25; Linux uses 2 and 1.2).
    static let slowStartGain = 2.0
    static let congestionAvoidanceGain = 1.25

    /// Refills the bucket for the time since the last call, at `bytesPerSecond`, up to `depth`.
    mutating func refill(now: Instant, bytesPerSecond: Double, depth: Int) {
        defer { updated = now }
        guard let updated, now > updated else {
            if updated == nil { budget = depth }
            return
        }
        let earned = bytesPerSecond * (now - updated).seconds
        // Compare in floating point first: a long idle time times a high rate exceeds Int.
        budget = earned >= Double(depth - budget) ? depth : min(depth, budget + Int(earned))
    }

    /// Whether a packet may be sent now.
    var mayRelease: Bool { budget > 0 }

    /// Charges a sent packet.
    mutating func charge(_ bytes: Int) { budget -= bytes }

    /// When the bucket next allows a packet, at `bytesPerSecond`; nil if it allows one now.
    func nextRelease(bytesPerSecond: Double) -> Instant? {
        guard budget <= 0, let updated, bytesPerSecond > 0 else { return nil }
        // Rounded up, and at least a nanosecond: a release at `updated` itself would earn
        // nothing and be asked for again at the same instant, for ever.
        let wait = (Double(1 - budget) / bytesPerSecond * 1e9).rounded(.up)
        return updated + .nanoseconds(max(1, Int64(min(wait, 1e9))))
    }
}
