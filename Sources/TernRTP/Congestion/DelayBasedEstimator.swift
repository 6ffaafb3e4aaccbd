public import TernCore

/// Delay-based bandwidth estimation (draft-ietf-rmcat-gcc-02 §5, as libwebrtc ships it): packets
/// are grouped by send time, the growth of one-way delay between groups is smoothed and its trend
/// taken over a window (trendline filter), an adaptive threshold decides overuse or underuse
/// (§5.4–5.5), and an AIMD controller moves the rate (§5.5): multiplicative increase while the
/// path is not queueing, a cut to 85 % of what was delivered when it is. Sans-I/O: feedback and
/// time in, a rate out.
public struct DelayBasedEstimator: Sendable {
    /// What the overuse detector concluded last.
    public enum Usage: String, Sendable { case normal, overusing, underusing }

    public private(set) var usage = Usage.normal
    /// The current estimate, bits per second.
    public private(set) var rate: Double
    public let minimumRate: Double
    public let maximumRate: Double

    // Packet groups (§5.2): packets sent within 5 ms of a group's first belong to it.
    private struct Group {
        var firstSend: Instant
        var lastSend: Instant
        var lastArrival: Duration
        var size: Int
    }
    private var current: Group?
    private var previous: Group?

    // Trendline filter.
    private var accumulatedDelayMs = 0.0
    private var smoothedDelayMs = 0.0
    private var samples: [(arrivalMs: Double, delayMs: Double)] = []
    private var firstArrival: Duration?
    private var deltaCount = 0
    private var trend = 0.0
    private static let windowSize = 20
    private static let smoothing = 0.9
    private static let thresholdGain = 4.0

    // Adaptive threshold (§5.4).
    private var threshold = 12.5
    private var lastThresholdUpdate: Duration?
    private var overuseTime = 0.0
    private var overuseCount = 0
    private var previousTrend = 0.0

    // AIMD (§5.5).
    /// No increase while even the least delayed packet of a report waited this long in a queue
    /// (`StandingQueueDetector.queueDelayMs`): the rate has reached what the path carries, and
    /// growing on until the trendline's threshold is crossed would build a queue of a hundred
    /// milliseconds or more on a slow link before the cut (the §5.5 increase is only allowed
    /// while the path is not queueing; this reads "queueing" from the delay itself).
    public static let holdingQueueDelayMs = 10.0
    /// What an overuse cut aims to drain the queue within, and the deepest cut it takes.
    static let drainTime: Duration = .milliseconds(500)
    static let deepestCut = 0.5
    /// The rate to return to once the queue a deep cut is draining has gone.
    private var afterDrain: Double?
    /// The capacity the path showed when a queue last made the rate come down, and the
    /// increase near it.
    public private(set) var capacity = KnownCapacity()
    private var lastIncrease: Instant?
    /// When the rate was last cut for overuse.
    private var lastDecrease: Instant?
    /// Until then the queue is a failed capacity test's: no cut, no increase.
    private var testQueueUntil: Instant?
    /// A queue that stays full without growing (`StandingQueueDetector`).
    public private(set) var standingQueue = StandingQueueDetector()
    /// What the path delivered lately of the packets the feedback covers, bits per second (from
    /// arrivals), if known.
    public private(set) var acknowledgedRate: Double?
    /// Traffic on the same path the feedback does not cover (data channels, `LinkShare`), bits
    /// per second as the sender measured it leave.
    public var untrackedRate = 0.0
    /// What the path delivered lately: the acknowledged packets and the untracked traffic beside
    /// them, so the estimate is not held to the media's share of the path.
    public var deliveredRate: Double? { acknowledgedRate.map { $0 + max(0, untrackedRate) } }
    /// Arrivals of the last 500 ms from `acknowledgedHead` on (older ones wait for compaction),
    /// and the sum of their sizes.
    private var acknowledged: [(arrival: Duration, size: Int, queued: Bool)] = []
    private var acknowledgedHead = 0
    private var acknowledgedBytes = 0
    /// Arrivals kept for the delivered rate at most: the window is 500 ms of the peer's arrival
    /// times, and a peer reporting one arrival time for everything would otherwise grow it for
    /// the whole call.
    public static let maximumWindowPackets = 4_096
    /// Arrivals in the delivered-rate window now.
    public var deliveredWindowCount: Int { acknowledged.count - acknowledgedHead }
    /// Arrivals pushed out of the window by `maximumWindowPackets` rather than by time.
    public private(set) var windowOverflows = 0

    public init(startRate: Double, minimumRate: Double, maximumRate: Double) {
        self.minimumRate = minimumRate
        self.maximumRate = max(minimumRate, maximumRate)
        rate = min(max(startRate, minimumRate), self.maximumRate)
    }

    /// Takes one feedback report's packets (oldest first) at `now`; returns the new rate.
    @discardableResult
    public mutating func update(_ packets: [SentPacketHistory.Feedback], now: Instant) -> Double {
        // A standing queue is overuse too, though the trendline sees no growth; a queue that
        // is forming eases the rate back (`easeBack`).
        let standing = standingQueue.update(packets, now: now, deliveredRate: deliveredRate)
        for packet in packets {
            guard let arrival = packet.arrival else { continue }
            let queued = standingQueue.queueDelayMs(of: packet, deliveredRate: deliveredRate).map { $0 > Self.holdingQueueDelayMs } ?? false
            noteAcknowledged(arrival: arrival, size: packet.size, queued: queued)
            add(sendTime: packet.sendTime, arrival: arrival, size: packet.size)
        }
        let drained = standingQueue.queueDelayMs < Self.holdingQueueDelayMs
            || lastDecrease.map { now - $0 >= Self.drainTime * 2 } ?? true
        if let restore = afterDrain, !standing, usage != .overusing, drained {
            // The queue a deep cut drained is gone (or has had twice the time it was cut for):
            // back to 85 % of what the path delivered.
            rate = min(maximumRate, max(rate, restore))
            afterDrain = nil
            lastIncrease = now
        }
        // A capacity test that meets a queue ends on this report, and the pacer drains what it
        // left (`BandwidthEstimator.pacingCeiling`): that queue is the test's, not the media's,
        // and the delivered rate its padding inflated is no capacity to cut from.
        if capacity.testing, standingQueue.latestQueueDelayMs > CapacityTest.failQueueMs {
            testQueueUntil = now + CapacityTest.drainTime
        }
        if let until = testQueueUntil, now < until {
            lastIncrease = now
        } else if standing || bucketRanDry {
            adjustRate(now: now, usage: .overusing)
        } else if usage == .normal, standingQueue.queueDelayMs > Self.holdingQueueDelayMs {
            easeBack(now: now)
        } else {
            adjustRate(now: now, usage: usage)
        }
        return rate
    }

    /// Above the capacity the path showed at its last queue, the newest packets of a report
    /// queued more than `holdingQueueDelayMs`: the excess a shaper's token bucket hid has run it
    /// dry, and the capacity has not grown. The estimate is cut now, as for overuse, rather than
    /// when the trendline (whose 20 packet groups span ~400 ms at 500 kbit/s) or the least
    /// delayed packet of a report (its oldest: 50–100 ms behind) sees it; by then the overshoot
    /// had queued ~40 ms. Only above a known capacity: there, being wrong costs one cut of a
    /// sender that is testing for growth anyway.
    private var bucketRanDry: Bool {
        guard let known = capacity.rate, rate > known else { return false }
        return standingQueue.latestQueueDelayMs > Self.holdingQueueDelayMs
    }

    /// A probe cluster measured `measured` bits per second through the path: the estimate jumps
    /// towards it unless the path is queueing (libwebrtc's delay-based estimate takes probe
    /// results), at most to twice what the path has delivered lately — a shaper's token bucket
    /// lets a short cluster through at line rate, and a jump to that would flood it; a path that
    /// really has the room passes the next, higher cluster too.
    public mutating func probed(_ measured: Double, now: Instant) {
        guard usage != .overusing else { return }
        let bound = 2 * max(deliveredRate ?? rate, rate / 2)
        rate = min(maximumRate, max(rate, min(measured, bound)))
        lastIncrease = now
    }

    /// Whether a capacity test runs (its padding is not growth of its own, `KnownCapacity`).
    public mutating func setCapacityTesting(_ testing: Bool) {
        capacity.testing = testing
    }

    /// Capacity tests passed twice in a row: the path grew well past the capacity it showed, and
    /// probes (which a bucket can no longer fool by much) and the multiplicative increase find
    /// the rest.
    public mutating func capacityOutgrown(now: Instant) {
        capacity.markOutgrown(now: now)
    }

    /// A capacity test (`CapacityTest`) saw the path deliver `delivered` bits per second, more
    /// than a bucket's worth over the capacity, without a queue: that is the capacity now, and
    /// the estimate starts from it.
    public mutating func capacityTestPassed(delivered: Double, now: Instant) {
        capacity.raise(to: delivered, now: now)
        rate = min(maximumRate, max(rate, delivered))
        lastIncrease = now
    }

    /// A capacity test met a queue past the capacity: the path has no room over it, and the rate
    /// holds just under it (`KnownCapacity.testMetQueue`).
    public mutating func capacityTestQueued() {
        if let held = capacity.testMetQueue() { rate = max(minimumRate, min(rate, held)) }
    }

    /// Whether the rate has outgrown the capacity it knew since the last call: a probe can find
    /// how far the path grew instead of the 8 %-a-second increase.
    public mutating func takeCapacityGrew() -> Bool { capacity.takeGrew() }

    /// Caps the rate (a loss-based bound or the peer's REMB).
    public mutating func cap(at bound: Double) {
        rate = min(rate, max(minimumRate, bound))
    }

    /// What the bottleneck delivered while it was busy: the arrivals of the latest unbroken run
    /// of packets that each waited more than `holdingQueueDelayMs` in its queue (within the
    /// 500 ms window), with the untracked traffic beside them; nil when that run spans less than
    /// `busyRunSpan`. Packets that left a queue left at the bottleneck's rate. The window of
    /// `deliveredRate` also holds, just after a capacity drop, arrivals at the old rate (at
    /// 2.5 → 0.5 Mbit/s, a cut to 85 % of it would still be ~40 % over the new capacity, and so
    /// would the rate the drain returns to and the capacity it remembers), and a shaper's bucket
    /// passes packets at line rate without a queue.
    public var busyDeliveredRate: Double? {
        guard var index = acknowledged.indices.last, index >= acknowledgedHead, acknowledged[index].queued else { return nil }
        let last = acknowledged[index].arrival
        var bytes = 0
        while index > acknowledgedHead, acknowledged[index - 1].queued {
            bytes += acknowledged[index].size
            index -= 1
        }
        let span = last - acknowledged[index].arrival
        guard span >= Self.busyRunSpan else { return nil }
        return Double(bytes) * 8 / span.seconds + max(0, untrackedRate)
    }
    /// Fewer arrivals make a noisy capacity (12 packets at 500 kbit/s).
    static let busyRunSpan: Duration = .milliseconds(200)

    private mutating func noteAcknowledged(arrival: Duration, size: Int, queued: Bool) {
        acknowledged.append((arrival, size, queued))
        acknowledgedBytes += size
        // A 500 ms window of arrivals (libwebrtc's acknowledged-bitrate estimator uses ~500 ms).
        while acknowledgedHead < acknowledged.count, arrival - acknowledged[acknowledgedHead].arrival > .milliseconds(500) {
            acknowledgedBytes -= acknowledged[acknowledgedHead].size
            acknowledgedHead += 1
        }
        while deliveredWindowCount > Self.maximumWindowPackets {
            acknowledgedBytes -= acknowledged[acknowledgedHead].size
            acknowledgedHead += 1
            windowOverflows &+= 1
        }
        if acknowledgedHead > 256, acknowledgedHead * 2 > acknowledged.count {
            acknowledged.removeFirst(acknowledgedHead)
            acknowledgedHead = 0
        }
        guard acknowledged.count - acknowledgedHead >= 2 else { return }
        let first = acknowledged[acknowledgedHead]
        let span = (arrival - first.arrival).seconds
        guard span > 0.1 else { return }
        // The first arrival opens the window; the bytes after it were delivered within it.
        acknowledgedRate = Double(acknowledgedBytes - first.size) * 8 / span
    }

    private mutating func add(sendTime: Instant, arrival: Duration, size: Int) {
        guard var group = current else {
            current = Group(firstSend: sendTime, lastSend: sendTime, lastArrival: arrival, size: size)
            return
        }
        if sendTime - group.firstSend <= .milliseconds(5) || sendTime < group.lastSend {
            group.lastSend = max(group.lastSend, sendTime)
            group.lastArrival = max(group.lastArrival, arrival)
            group.size += size
            current = group
            return
        }
        // The group is complete: compare it with the one before.
        if let previous {
            let sendDelta = (group.lastSend - previous.lastSend).seconds * 1000
            let arrivalDelta = (group.lastArrival - previous.lastArrival).seconds * 1000
            if sendDelta >= 0 { detect(delayVariationMs: arrivalDelta - sendDelta, sendDeltaMs: sendDelta, arrival: group.lastArrival) }
        }
        previous = group
        current = Group(firstSend: sendTime, lastSend: sendTime, lastArrival: arrival, size: size)
    }

    /// Trendline over the smoothed accumulated delay, then the adaptive threshold.
    private mutating func detect(delayVariationMs: Double, sendDeltaMs: Double, arrival: Duration) {
        let first = firstArrival ?? arrival
        firstArrival = first
        deltaCount = min(deltaCount + 1, 1_000)
        accumulatedDelayMs += delayVariationMs
        smoothedDelayMs = Self.smoothing * smoothedDelayMs + (1 - Self.smoothing) * accumulatedDelayMs
        samples.append(((arrival - first).seconds * 1000, smoothedDelayMs))
        if samples.count > Self.windowSize { samples.removeFirst(samples.count - Self.windowSize) }
        guard samples.count == Self.windowSize else { return }
        let meanX = samples.reduce(0) { $0 + $1.arrivalMs } / Double(samples.count)
        let meanY = samples.reduce(0) { $0 + $1.delayMs } / Double(samples.count)
        var numerator = 0.0, denominator = 0.0
        for sample in samples {
            numerator += (sample.arrivalMs - meanX) * (sample.delayMs - meanY)
            denominator += (sample.arrivalMs - meanX) * (sample.arrivalMs - meanX)
        }
        let slope = denominator > 0 ? numerator / denominator : 0
        previousTrend = trend
        trend = slope
        let modified = min(Double(deltaCount), 60) * trend * Self.thresholdGain
        classify(modified, sendDeltaMs: sendDeltaMs, arrival: arrival)
    }

    private mutating func classify(_ modified: Double, sendDeltaMs: Double, arrival: Duration) {
        if modified > threshold {
            overuseTime += sendDeltaMs
            overuseCount += 1
            // Overuse only when it lasted over 10 ms and the trend is not falling (§5.4).
            if overuseTime > 10, overuseCount > 1, trend >= previousTrend {
                overuseTime = 0
                overuseCount = 0
                usage = .overusing
            }
        } else if modified < -threshold {
            overuseTime = 0
            overuseCount = 0
            usage = .underusing
        } else {
            overuseTime = 0
            overuseCount = 0
            usage = .normal
        }
        // The threshold follows the trend slowly, faster downwards (k_u 0.0087, k_d 0.039),
        // ignoring spikes far above it (§5.4).
        let elapsedMs = lastThresholdUpdate.map { min((arrival - $0).seconds * 1000, 100) } ?? 0
        lastThresholdUpdate = arrival
        if abs(modified) < threshold + 15 {
            let k = abs(modified) < threshold ? 0.039 : 0.0087
            threshold += k * (abs(modified) - threshold) * elapsedMs
            threshold = min(max(threshold, 6), 600)
        }
    }

    private mutating func adjustRate(now: Instant, usage: Usage) {
        switch usage {
        case .overusing:
            // Decrease at most once per 200 ms: to 85 % of what the path delivered (§5.5), or
            // lower when the queue is already long: sending 15 % under a path's rate drains
            // 150 ms of queue a second, so a queue of Q ms left by a drop of capacity, or by an
            // overshoot a shaper's token bucket hid, takes Q / 150 seconds to drain. Below the
            // delivered rate by Q / `drainTime` instead, it drains in about `drainTime`.
            if let last = lastDecrease, now - last < .milliseconds(200) { return }
            let delivered = busyDeliveredRate ?? deliveredRate ?? rate
            let queued = standingQueue.queueDelayMs / Self.drainTime.milliseconds
            let factor = max(Self.deepestCut, min(0.85, 1 - queued))
            rate = max(minimumRate, min(rate, factor * delivered))
            capacity.seen(delivered: delivered, now: now)
            // Below 85 % only until the queue has drained (a BBR-like drain): the path still
            // carries what it delivered.
            if factor < 0.85 || afterDrain != nil {
                afterDrain = max(rate, min(afterDrain ?? .infinity, 0.85 * delivered))
            }
            lastDecrease = now
            lastIncrease = now
        case .underusing:
            lastIncrease = now  // hold: queues are draining
        case .normal:
            let elapsed = lastIncrease.map { min((now - $0).seconds, 1) } ?? 0
            lastIncrease = now
            // Multiplicative increase, 8 % per second (§5.5), but never far past what is
            // delivered; near a capacity the path showed lately, additively (`KnownCapacity`).
            var increased = capacity.increase(from: rate, delivered: deliveredRate, elapsed: elapsed, now: now) ?? rate * pow1p08(elapsed)
            if let delivered = deliveredRate { increased = min(increased, 1.5 * delivered + 10_000) }
            rate = min(maximumRate, max(rate, increased))
        }
    }

    /// A queue between `holdingQueueDelayMs` and the standing queue's threshold: no increase,
    /// and a decrease that grows with the queue, up to `easeBackRate` a second at the threshold.
    /// A rate that crept a few percent past the path's (the increase near a known capacity is
    /// additive and slow) then settles with a queue of about `holdingQueueDelayMs`, where the
    /// trendline, which needs a steeper rise, would have let the queue creep on to the
    /// standing queue's cut.
    private mutating func easeBack(now: Instant) {
        let elapsed = lastIncrease.map { min((now - $0).seconds, 1) } ?? 0
        lastIncrease = now
        // The path just showed where its capacity is.
        if let delivered = deliveredRate { capacity.seen(delivered: delivered, now: now) }
        let over = (standingQueue.queueDelayMs - Self.holdingQueueDelayMs)
            / (StandingQueueDetector.thresholdMs - Self.holdingQueueDelayMs)
        rate = max(minimumRate, rate * (1 - Self.easeBackRate * min(max(over, 0), 1) * elapsed))
    }
    static let easeBackRate = 0.1

    private func pow1p08(_ seconds: Double) -> Double {
        // 1.08^seconds without Foundation: exp(seconds × ln 1.08) by a short series (seconds ≤ 1).
        let x = seconds * 0.076961041136128
        return 1 + x + x * x / 2 + x * x * x / 6
    }
}
