public import TernCore

/// Notices a bottleneck queue that stays full. The trendline filter
/// (`DelayBasedEstimator`) reacts to one-way delay that grows; a drop-tail queue that filled
/// after the path's capacity fell (a handover, a cross flow) holds its delay without growing,
/// and the trendline sees nothing while every packet waits hundreds of milliseconds. This
/// compares each packet's one-way delay (arrival in the receiver's time base minus send time:
/// an unknown but fixed offset) with the lowest seen in the last 30 s (the path without a
/// queue): when even the least delayed packet of every report for 300 ms waited more than
/// 25 ms, the queue is standing, and the estimate treats it as overuse. A paced keyframe's
/// burst drains within a report or two, so it does not count. 25 ms each way keeps a call's
/// round trip within 50 ms of the path's. Sans-I/O.
public struct StandingQueueDetector: Sendable {
    /// The lowest one-way delay of each second (sender's clock), the last `baseWindowSeconds`.
    private var minima: [(second: Int64, delayMs: Double)] = []
    private var standingSince: Instant?
    /// The least queueing delay of the last report, ms (0 before any).
    public private(set) var queueDelayMs = 0.0
    /// The least queueing delay of the last report's `latestPackets` most recently sent
    /// packets, ms (0 before any): where the queue is now, rather than where it was when the
    /// report began (50–100 ms earlier), and not one packet's jitter.
    public private(set) var latestQueueDelayMs = 0.0
    /// The most any packet of the last report was delayed over the base, ms, with no allowance
    /// for its own transmission (0 before any): near zero only where packets pass the
    /// bottleneck at line rate — a link far faster than the sender, or a shaper's bucket with
    /// tokens left; on a slow plain queue each packet's own transmission shows.
    public private(set) var largestDelayMs = 0.0
    /// The lowest one-way delay of the base window (the path without a queue), ms, as of the
    /// last report; nil before any.
    private var baseDelayMs: Double?
    static let latestPackets = 3

    public static let thresholdMs = 25.0
    public static let hold: Duration = .milliseconds(300)
    static let baseWindowSeconds: Int64 = 30
    static let slowestAllowanceRate = 100_000.0

    public init() {}

    /// Takes one report's packets at `now`; true while the queue stands. `deliveredRate` (bit/s),
    /// what the path delivered lately, if known: the least delayed packet's own transmission at
    /// that rate is not counted as queueing. A 1,200-byte packet takes 4 ms at 2.5 Mbit/s and
    /// 19 ms at 500 kbit/s, so after the capacity falls it arrives later than the base measured
    /// before, with no queue at all. The delivered rate is at most the bottleneck's, so the
    /// allowance is never too small; it is taken at 100 kbit/s at least (an audio-only call
    /// delivers far less than its path carries).
    public mutating func update(_ packets: [SentPacketHistory.Feedback], now: Instant, deliveredRate: Double? = nil) -> Bool {
        var least: (delay: Double, size: Int)?
        var latest: [(delay: Double, size: Int)] = []
        var largest: Double?
        for packet in packets {
            guard let arrival = packet.arrival else { continue }
            let delay = Double(arrival.nanoseconds) / 1e6 - packet.sendTime.milliseconds
            guard delay.isFinite else { continue }
            if least.map({ delay < $0.delay }) ?? true { least = (delay, packet.size) }
            largest = max(largest ?? delay, delay)
            latest.append((delay, packet.size))
            if latest.count > Self.latestPackets { latest.removeFirst() }
            let second = packet.sendTime.nanoseconds / 1_000_000_000
            if let last = minima.last, last.second == second {
                minima[minima.count - 1].delayMs = min(last.delayMs, delay)
            } else if minima.last.map({ second > $0.second }) ?? true {
                minima.append((second, delay))
            }
        }
        let current = now.nanoseconds / 1_000_000_000
        minima.removeAll { current - $0.second >= Self.baseWindowSeconds }
        baseDelayMs = minima.map(\.delayMs).min()
        guard let least, let base = baseDelayMs else { return standing(now: now) }
        queueDelayMs = max(0, least.delay - base - Self.transmissionMs(least.size, at: deliveredRate))
        largestDelayMs = max(0, (largest ?? base) - base)
        latestQueueDelayMs = latest.map { max(0, $0.delay - base - Self.transmissionMs($0.size, at: deliveredRate)) }.min() ?? 0
        if queueDelayMs > Self.thresholdMs {
            if standingSince == nil { standingSince = now }
        } else {
            standingSince = nil
        }
        return standing(now: now)
    }

    /// How long `packet` waited in a queue, ms, against the base as of the last `update` (with
    /// the same allowance for its own transmission at `deliveredRate`); nil before any base or
    /// for a packet reported lost.
    public func queueDelayMs(of packet: SentPacketHistory.Feedback, deliveredRate: Double?) -> Double? {
        guard let arrival = packet.arrival, let base = baseDelayMs else { return nil }
        let delay = Double(arrival.nanoseconds) / 1e6 - packet.sendTime.milliseconds
        guard delay.isFinite else { return nil }
        return max(0, delay - base - Self.transmissionMs(packet.size, at: deliveredRate))
    }

    /// How long a packet of `size` bytes takes to send at `deliveredRate` (at least
    /// `slowestAllowanceRate`), ms; 0 when the rate is unknown.
    private static func transmissionMs(_ size: Int, at deliveredRate: Double?) -> Double {
        deliveredRate.map { Double(size) * 8 / max($0, slowestAllowanceRate) * 1000 } ?? 0
    }

    private func standing(now: Instant) -> Bool {
        standingSince.map { now - $0 >= Self.hold } ?? false
    }
}
