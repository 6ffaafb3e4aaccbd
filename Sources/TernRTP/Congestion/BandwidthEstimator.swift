public import TernCore

/// Send-side bandwidth estimation (Google Congestion Control, draft-ietf-rmcat-gcc-02 as
/// libwebrtc ships it) for one transport: transport-wide feedback in, a target send rate out —
/// the lower of the delay-based estimate, the loss-based bound and the peer's REMB, within
/// the configured limits. Sans-I/O: values and time in, a rate out; the media sender reads
/// `targetRate` to set its encoders (and, later, a pacer).
public struct BandwidthEstimator: Sendable {
    /// Limits and the rate to start from, bits per second.
    public struct Configuration: Sendable, Equatable {
        public var startRate: Double = 300_000
        public var minimumRate: Double = 30_000
        public var maximumRate: Double = 2_500_000

        public init(startRate: Double = 300_000, minimumRate: Double = 30_000, maximumRate: Double = 2_500_000) {
            self.startRate = startRate
            self.minimumRate = minimumRate
            self.maximumRate = maximumRate
        }
    }

    public let configuration: Configuration
    public private(set) var history = SentPacketHistory()
    public private(set) var delayBased: DelayBasedEstimator
    public private(set) var lossBased: LossBasedEstimator
    /// When the last transport-wide feedback arrived.
    public private(set) var lastFeedbackAt: Instant?
    /// When the first and the last packet with a transport-wide number left.
    public private(set) var firstNumberedAt: Instant?
    public private(set) var lastNumberedAt: Instant?
    /// What may be in flight, and the encoders' pushback while more is.
    public private(set) var congestionWindow = CongestionWindow()
    /// When the least delayed packet of a report last waited in a queue more than
    /// `queueingThresholdMs` (`StandingQueueDetector.queueDelayMs`).
    public private(set) var lastQueueingAt: Instant?
    /// When the delay-based estimate last saw overuse (and cut).
    public private(set) var lastOverusedAt: Instant?
    /// The peer's last REMB (RFC draft-alvestrand-rmcat-remb), bits per second, if any.
    public private(set) var remoteEstimate: Double?
    /// When to probe (`ProbeController`) and what the probes found (`ProbeRateEstimator`).
    public private(set) var probes: ProbeController
    public private(set) var probeRates = ProbeRateEstimator()
    /// Growth tests near a known capacity (in place of recovery probes there).
    public private(set) var capacityTest: CapacityTest
    private var pendingProbes: [ProbeCluster] = []
    /// Clusters to stop before their bytes are sent (a capacity test that ended).
    private var endedClusters: [Int] = []
    /// When a report last showed any queue a capacity test would fail on.
    private var lastAnyQueueAt: Instant?
    /// When a report last showed a queue (its packets' own transmission allowed for).
    private var lastQueuedAt: Instant?
    /// After a failed capacity test, the capacity it tested past, and when it failed
    /// (`pacingCeiling`).
    private var drain: (capacity: Double, at: Instant)?
    /// Probe results taken, bits per second, the last 16 (for stats and tests).
    public private(set) var probeResults: [Double] = []
    /// Probe clusters handed to the pacer so far.
    public private(set) var probeClustersStarted = 0
    /// Set by the sender while its encoders want more than the target gives them (`LinkShare`
    /// leaves the media more of the link then; recovery probes run only then).
    public var encodersLimited = false
    /// What the path delivered, sampled with each feedback over the last `deliveredPeakWindow`
    /// (at most 1,024 samples): a recovery probe runs when the estimate has fallen far below it.
    private var deliveredSamples: [(at: Instant, rate: Double)] = []
    static let deliveredPeakWindow: Duration = .seconds(30)

    /// `seed` makes the random spacing of capacity tests (each end of a call its own).
    public init(configuration: Configuration = Configuration(), seed: UInt64 = 0) {
        self.configuration = configuration
        capacityTest = CapacityTest(seed: seed)
        delayBased = DelayBasedEstimator(startRate: configuration.startRate, minimumRate: configuration.minimumRate,
                                         maximumRate: configuration.maximumRate)
        lossBased = LossBasedEstimator(startRate: configuration.startRate, minimumRate: configuration.minimumRate,
                                       maximumRate: configuration.maximumRate)
        probes = ProbeController(maximumRate: configuration.maximumRate)
    }

    /// Media started on a path that can be probed (padding can be sent and is fed back): the
    /// estimate starts at `probingStartRate` if that is lower (libwebrtc starts at 300 kbit/s)
    /// and the first probe clusters (3 × and 6 × it) go out to find the path's capacity.
    public mutating func mediaStarted(now: Instant, probingStartRate: Double) {
        guard !probes.hasStarted else { return }
        if probingStartRate < targetRate {
            delayBased.cap(at: probingStartRate)
            lossBased.follow(probingStartRate / 1.5)
        }
        pendingProbes += probes.start(startRate: targetRate, now: now)
    }

    /// Probe clusters to send now (for the pacer), once each.
    public mutating func takeProbeClusters() -> [ProbeCluster] {
        defer { pendingProbes = [] }
        probeClustersStarted &+= pendingProbes.count
        return pendingProbes
    }

    /// Clusters the pacer is to stop now, once each.
    public mutating func takeEndedClusters() -> [Int] {
        defer { endedClusters = [] }
        return endedClusters
    }

    /// The most the pacer may send at now, bits per second, whatever the target (nil: no
    /// ceiling): after a failed capacity test, `CapacityTest.drainShare` of the capacity for
    /// `CapacityTest.drainTime` while its queue drains, then the capacity itself for
    /// `CapacityTest.settleTime` — what the encoders made meanwhile leaves at the rate the
    /// bottleneck takes instead of in bursts its emptied bucket cannot absorb.
    ///
    /// After that, while the estimate is held under a capacity a test met a queue past
    /// (`KnownCapacity.testMetQueue`) and no test runs, at most the capacity: the media
    /// runs within a few percent of the link with the bucket about empty, and a frame paced at
    /// 2.5 × the estimate would wait at the bottleneck, in front of the audio and the other
    /// direction's feedback, instead of here (in the lab's 500 kbit/s step each end's queue rose
    /// to 55–70 ms as the ceiling lifted).
    public func pacingCeiling(now: Instant) -> Double? {
        if let drain {
            let since = now - drain.at
            if since < CapacityTest.drainTime { return CapacityTest.drainShare * drain.capacity }
            if since < CapacityTest.settleTime { return drain.capacity }
        }
        guard delayBased.capacity.heldByTest, capacityTest.running == nil else { return nil }
        return delayBased.capacity.rate
    }

    /// The rate to send at now, bits per second.
    public var targetRate: Double {
        var rate = min(delayBased.rate, lossBased.rate)
        if let remoteEstimate { rate = min(rate, remoteEstimate) }
        return min(max(rate, configuration.minimumRate), configuration.maximumRate)
    }

    /// Numbers a packet about to leave (`size` bytes on the wire): the value of its
    /// transport-wide sequence number header extension.
    public mutating func packetSent(size: Int, now: Instant, probeCluster: Int? = nil) -> UInt16 {
        if let probeCluster {
            if probeCluster == capacityTest.running?.cluster {
                capacityTest.sent(sequence: history.nextUnwrappedSequence, cluster: probeCluster)
            } else {
                probeRates.sent(sequence: history.nextUnwrappedSequence, cluster: probeCluster)
            }
        }
        if firstNumberedAt == nil { firstNumberedAt = now }
        lastNumberedAt = now
        return history.record(size: size, now: now)
    }

    /// Whether the estimate follows the path's queue now: packets carrying transport-wide
    /// numbers left within the last second, and feedback on them arrived within the last two
    /// (or the first of them left less than two seconds ago, so feedback is still to come).
    public func isInformed(now: Instant) -> Bool {
        guard let lastNumberedAt, now - lastNumberedAt <= .seconds(1) else { return false }
        if let lastFeedbackAt { return now - lastFeedbackAt <= .seconds(2) }
        return firstNumberedAt.map { now - $0 <= .seconds(2) } ?? false
    }

    /// Bytes that may still go into flight before the congestion window is full (the pacer
    /// holds all but audio once they are sent; `Pacer.windowRoom`): nil, no window, unless
    /// feedback informs the estimate, so a peer that stops sending feedback cannot stop the media.
    public func windowRoom(now: Instant) -> Int? {
        guard let bytes = congestionWindow.bytes, isInformed(now: now) else { return nil }
        return bytes - history.bytesInFlight
    }

    /// The encoders' share after the congestion window's pushback, bits per second.
    public func pushedBack(_ rate: Double) -> Double { rate * congestionWindow.pushbackRatio }

    /// The delay-based estimate within the configured limits: what the path's queue allows,
    /// without the loss-based bound or the peer's REMB. Traffic with a congestion control of its
    /// own against loss (SCTP) is shared from this: random loss is not a queue, and a bound
    /// that loss drove down must not throttle a transfer that recovers from loss itself.
    public var queueBasedRate: Double {
        min(max(delayBased.rate, configuration.minimumRate), configuration.maximumRate)
    }

    /// Whether the delay-based estimate has found the path narrower than the configured maximum.
    public var foundBottleneck: Bool { queueBasedRate < configuration.maximumRate }

    public static let queueingThresholdMs = 20.0
    /// How long a path that queued counts as one that does.
    public static let queueingHold: Duration = .seconds(10)

    /// Whether the path queued within `queueingHold`: a bottleneck that traffic fills, as opposed
    /// to loss or jitter alone.
    public func pathQueues(now: Instant) -> Bool {
        lastQueueingAt.map { now - $0 <= Self.queueingHold } ?? false
    }

    /// Whether the delay-based estimate saw overuse within `queueingHold`. An overshoot past a
    /// shaper's bucket is cut by the trendline before the least delayed packet of a report
    /// waited `queueingThresholdMs`: no recovery probe may follow it (the bucket, full again
    /// after the cut, would pass the probe at line rate).
    public func overusedLately(now: Instant) -> Bool {
        lastOverusedAt.map { now - $0 <= Self.queueingHold } ?? false
    }

    /// Traffic on the same path that carries no transport-wide numbers (data channels), bits
    /// per second as the sender measured it: counted as delivered beside the media.
    public mutating func setUntrackedRate(_ bitsPerSecond: Double) {
        delayBased.untrackedRate = bitsPerSecond.isFinite ? max(0, bitsPerSecond) : 0
    }

    /// A transport-wide feedback packet arrived; returns the new target.
    @discardableResult
    public mutating func handle(_ feedback: TransportWideCC, now: Instant) -> Double {
        lastFeedbackAt = now
        let packets = history.feedback(for: feedback)
        delayBased.update(packets, now: now)
        let queueing = delayBased.standingQueue.queueDelayMs > Self.queueingThresholdMs
        if queueing { lastQueueingAt = now }
        if delayBased.usage == .overusing { lastOverusedAt = now }
        lossBased.update(packets, now: now, queueing: queueing || delayBased.usage == .overusing)
        for (cluster, measured) in probeRates.update(packets) {
            delayBased.probed(measured, now: now)
            lossBased.probed(measured)
            probeResults.append(measured)
            if probeResults.count > 16 { probeResults.removeFirst() }
            // The next cluster goes from what was taken, not what the cluster claimed.
            pendingProbes += probes.probeResult(cluster: cluster, measured: measured, applied: delayBased.rate, now: now)
        }
        // Any delay over the path's base, the packets' own transmission included: before a
        // bucket was seen, a test needs a path that passes the media at line rate (a bucket with
        // tokens, or room to spare) — a slow plain queue shows each packet's transmission.
        if delayBased.standingQueue.largestDelayMs >= CapacityTest.failQueueMs { lastAnyQueueAt = now }
        // Once one was seen, only a queue counts (transmission allowed for).
        if max(delayBased.standingQueue.queueDelayMs, delayBased.standingQueue.latestQueueDelayMs) >= CapacityTest.failQueueMs {
            lastQueuedAt = now
        }
        pendingProbes += probes.retryLost(now: now)
        testCapacity(packets, now: now)
        delayBased.setCapacityTesting(capacityTest.isSending)
        if delayBased.takeCapacityGrew(), encodersLimited {
            pendingProbes += probes.capacityGrew(estimate: targetRate, now: now)
        }
        lossBased.follow(delayBased.rate)
        congestionWindow.update(packets, target: targetRate, bytesInFlight: history.bytesInFlight, now: now)
        if let delivered = delayBased.deliveredRate {
            deliveredSamples.append((now, delivered))
            deliveredSamples.removeAll { now - $0.at > Self.deliveredPeakWindow }
            if deliveredSamples.count > 1_024 { deliveredSamples.removeFirst(deliveredSamples.count - 1_024) }
        }
        // Near a known capacity the capacity test looks for growth instead (`CapacityTest`),
        // unless none ran lately: the line-rate gate kept them off a path with a standing
        // transmission delay (a plain queue), where no bucket can fool a probe. Never where a
        // test ended lately or tests are paused: a test that met a queue early may have met a
        // bucket its media had kept low, and the tokens refilled since would pass a probe at
        // line rate (70–100 ms of queue in the lab's 500 kbit/s step); nor where a bucket was
        // seen. There `KnownCapacity` counts the excess the media carries past the capacity.
        let paused = capacityTest.noBucketUntil.map { now < $0 } ?? false
        let testedLately = capacityTest.running != nil || capacityTest.lastEndedAt.map { now - $0 <= Self.queueingHold } ?? false
        if delayBased.capacity.rate == nil || (!paused && !testedLately && !capacityTest.bucketSeen) {
            pendingProbes += probes.check(estimate: targetRate, deliveredPeak: deliveredSamples.map(\.rate).max(),
                                          limited: encodersLimited,
                                          queued: pathQueues(now: now) || overusedLately(now: now), now: now)
        }
        return targetRate
    }

    /// Judges the running capacity test on a report, or starts one: while the encoders want
    /// more, the estimate is near the capacity the path last showed and the path has not queued
    /// for `CapacityTest.quietTime`.
    private mutating func testCapacity(_ packets: [SentPacketHistory.Feedback], now: Instant) {
        if let trial = capacityTest.running {
            if !encodersLimited {
                capacityTest.abandon(now: now)
            } else if let outcome = capacityTest.judge(packets, newestQueueDelayMs: delayBased.standingQueue.latestQueueDelayMs, now: now) {
                switch outcome {
                case let .passed(_, proven):
                    delayBased.capacityTestPassed(delivered: proven, now: now)
                    if capacityTest.passesInARow >= CapacityTest.passesToProbe {
                        capacityTest.abandonStaircase()
                        delayBased.capacityOutgrown(now: now)
                        pendingProbes += probes.capacityGrew(estimate: targetRate, provenByTests: true, now: now)
                    }
                case .failed:
                    break
                case let .queued(pastBucket):
                    // The test emptied the bucket and left a queue; media at the capacity would
                    // keep it (each frame's burst queues behind an empty bucket): under it for a
                    // moment, whatever the encoders made meanwhile. Where the queue came past a
                    // bucket the capacity is the link's: no higher than just under it after that
                    // (not where it came at once: a receiver's jitter is no link).
                    drain = (trial.capacity, now)
                    if pastBucket { delayBased.capacityTestQueued() }
                }
            }
            if capacityTest.running == nil { endedClusters.append(trial.cluster) }
            return
        }
        let quiet = [lastQueueingAt, lastOverusedAt].allSatisfy { $0.map { now - $0 >= CapacityTest.quietTime } ?? true }
        // Only where probes can be padded (`mediaStarted`).
        // Not while packets queue at all (a test would only add to it) nor while the capacity
        // counts as outgrown (probes and the multiplicative increase are finding it).
        let lastDelayed = capacityTest.bucketSeen ? lastQueuedAt : lastAnyQueueAt
        let queueFree = lastDelayed.map { now - $0 >= CapacityTest.queueFreeTime } ?? true
        let windowOpen = windowRoom(now: now).map { $0 > 0 } ?? true
        guard probes.hasStarted, encodersLimited, quiet, queueFree, windowOpen, !delayBased.capacity.isOutgrown,
              delayBased.usage == .normal, let capacity = delayBased.capacity.rate,
              delayBased.rate >= KnownCapacity.nearShare * capacity, targetRate < configuration.maximumRate
        else { return }
        let id = probes.reserveID()
        if let cluster = capacityTest.start(capacity: capacity, bucketBits: delayBased.capacity.bucketBits,
                                            maximumRate: configuration.maximumRate, id: id, now: now) {
            pendingProbes.append(cluster)
        }
    }

    /// The peer's REMB arrived (an upper bound: aiortc sends REMB, not transport-wide feedback).
    public mutating func handle(remb bitrate: UInt64) {
        remoteEstimate = Double(bitrate)
    }
}
