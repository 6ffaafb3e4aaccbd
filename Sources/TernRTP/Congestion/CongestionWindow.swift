public import TernCore

/// What may be in flight (sent, not yet covered by feedback) and how hard the encoders are held
/// back while more is (libwebrtc's GoogCC congestion window and its pushback, which it ships
/// on with "QueueSize:350"). The window is the target over the lowest of the last 32 feedback
/// round trips (each the longest a packet in one report waited for it) plus `queue`, smoothed,
/// at least two packets. Sans-I/O: updated with each feedback report.
///
/// `queue` is 100 ms, not libwebrtc's 350: what the window lets into flight beyond a round
/// trip is the queue a sender keeps at the bottleneck while it drains a backlog after a drop
/// of capacity. In the lab (Benchmarks/congestion/cc_call.py, 640x480 with grain, release),
/// 350 → 100 ms took the 300 kbit/s start-up freeze from 1.32 to 0.83 s (median of 4 sides) and
/// the queue after a 2.5 → 0.5 Mbit/s step from 5.3 to 4.3 s on the sides without a later
/// overshoot, with 5 % random loss unchanged (1,764 kbit/s settled).
public struct CongestionWindow: Sendable {
    /// The window, bytes; nil before feedback.
    public private(set) var bytes: Int?
    /// What the encoders are held to: 5 % less per report while in flight exceeds the window,
    /// 10 % while it is half again over (never under `minimumPushbackRatio`); back up 5 % per
    /// report below it (10 % below half of it), at once to 1 when nearly nothing is in flight.
    /// Feedback comes every 100 ms, a quarter of libwebrtc's update rate, hence the faster
    /// steps back up.
    public private(set) var pushbackRatio = 1.0
    private var feedbackRoundTrips: [Duration] = []

    public static let queue: Duration = .milliseconds(100)
    static let minimumPushbackRatio = 0.25

    public init() {}

    /// Takes one report's packets at `now`, with the target and what is in flight after it.
    mutating func update(_ packets: [SentPacketHistory.Feedback], target: Double, bytesInFlight: Int, now: Instant) {
        guard let longest = packets.lazy.map({ now - $0.sendTime }).max(), longest >= .zero else { return }
        feedbackRoundTrips.append(longest)
        if feedbackRoundTrips.count > 32 { feedbackRoundTrips.removeFirst() }
        guard let shortest = feedbackRoundTrips.min() else { return }
        let window = target / 8 * (shortest + Self.queue).seconds
        let smoothed = bytes.map { (window + Double($0)) / 2 } ?? window
        let updated = max(3_000, Int(min(smoothed, 1e9)))
        bytes = updated
        let fill = Double(bytesInFlight) / Double(updated)
        if fill > 1.5 {
            pushbackRatio *= 0.9
        } else if fill > 1 {
            pushbackRatio *= 0.95
        } else if fill < 0.1 {
            pushbackRatio = 1
        } else {
            pushbackRatio = min(1, pushbackRatio * (fill < 0.5 ? 1.1 : 1.05))
        }
        pushbackRatio = max(pushbackRatio, Self.minimumPushbackRatio)
    }
}
