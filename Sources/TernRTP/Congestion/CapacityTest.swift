public import TernCore

/// Whether a path outgrew the capacity it last showed at a queue (`KnownCapacity`), tested
/// without flooding it. A shaper's token bucket (the lab's TBF: 16 KiB) passes a short probe
/// cluster at line rate whatever its rate, so a probe at twice the estimate reads a 500 kbit/s
/// link as 1 Mbit/s and the jump that follows queues 70–160 ms. Only sending more than a
/// bucket's worth over the capacity tells growth from a bucket, and sending it fast floods the
/// link for the feedback's ~100 ms once the bucket is dry. So the test is long and shallow:
/// a cluster at `overRates[0]` × the capacity (padding where the media does not fill it, every
/// packet paced at that rate), stopped at the first report whose newest packets queued over
/// `failQueueMs` — about one packet of queue at 500 kbit/s, drained within a few hundred
/// milliseconds once the padding stops. The first step passes once what arrived over the
/// capacity is as much as the largest bucket seen (`KnownCapacity.bucketBits`, 16 KiB before
/// any): the capacity becomes what the test proved — what it delivered, less what a full bucket
/// could have added over its span — and the next test, shorter, runs at 1.25 × what the first
/// delivered, is judged against that (`staircaseBase`) and passes at half again a bucket
/// (`passBuckets`); two passes in a row
/// hand over to probes and the multiplicative increase (`BandwidthEstimator`). A capacity read
/// low (the rate a cut was taken from, not the link's) is corrected by one pass and one failure
/// without a jump past the link.
///
/// After a failed test the pacer sends under the capacity for a moment
/// (`BandwidthEstimator.pacingCeiling`): the test emptied the bucket, and frames paced at 2.5 ×
/// the estimate would queue behind it (in the lab the queue grew from 10 ms at the stop to
/// 56–90 ms without the ceiling, 5–39 ms with it); that queue does not cut the estimate. Where
/// the queue came past a bucket, the estimate then holds just under the capacity and the pacer
/// no faster than it until a queue or a pass reads the capacity again
/// (`KnownCapacity.testMetQueue`): the link is where the capacity says.
///
/// Tests are for paths with a bucket. Until a test has failed only after a bucket's worth went
/// over (`bucketSeen`), one starts only where the last second's packets all passed at line
/// rate: a slow plain drop-tail queue delays each packet by its own transmission, and there a
/// test only adds to the queue the media keeps (40–60 ms in virtual time) — the cuts read such a
/// path's capacity anyway. Two tests in a row that meet a queue before a quarter of a bucket
/// went over (a plain queue, or a receiver's jitter) stop tests for `noBucketPause`, unless a
/// bucket was seen.
///
/// Tests run only while the encoders want more, the estimate is near the capacity and the path
/// has not queued for `quietTime` (a bucket refills meanwhile); after a failure the next waits
/// a random 3–5 s, so the two ends of a call, each testing its own direction, seldom queue
/// together (each end's round trip carries both). Sans-I/O: the caller says when a test may
/// start and hands it the feedback; the cluster goes to the pacer like a probe's.
public struct CapacityTest: Sendable {
    /// A test under way.
    public struct Trial: Sendable {
        /// The pacer's cluster carrying it.
        public let cluster: Int
        /// The rate it is sent at, and the capacity it tests past, bits per second.
        public let rate: Double
        public let capacity: Double
        /// What has to arrive over the capacity for a pass, bits, and the bucket it outlasts.
        public let passBits: Double
        let bucketBits: Double
        let deadline: Instant
        var firstSequence: Int64?
        var firstArrival: Duration?
        var lastArrival: Duration?
        /// Bytes that arrived after the first arrival.
        var arrivedBytes = 0

        /// Seconds from the first arrival to the last, and the bits that arrived over the
        /// capacity in them; nil before two arrivals apart.
        var arrivals: (span: Double, excessBits: Double)? {
            guard let firstArrival, let lastArrival, lastArrival > firstArrival else { return nil }
            let span = (lastArrival - firstArrival).seconds
            return (span, Double(arrivedBytes) * 8 - capacity * span)
        }
    }

    /// How a test ended.
    public enum Outcome: Sendable, Equatable {
        /// More than a bucket's worth over the capacity arrived without a queue: the path
        /// delivered `delivered` bits per second, of which a full bucket could have hidden all
        /// but `proven` (the capacity a link under the test's rate could still have).
        case passed(delivered: Double, proven: Double)
        /// A queue formed: the capacity holds, and the test's queue is to drain. `pastBucket`: it
        /// formed only after a quarter of the smallest bucket went over the capacity — the path's
        /// rate is the capacity's, not the test's; before that, it was a plain drop-tail queue, a
        /// receiver's jitter, or a bucket the media had kept low.
        case queued(pastBucket: Bool)
        /// The test could not run its course: the capacity holds.
        case failed
    }

    public private(set) var running: Trial?
    /// Whether a test runs and its first packet has left (a cluster may wait behind others in
    /// the pacer).
    public var isSending: Bool { running?.firstSequence != nil }
    /// When the last test ended.
    public private(set) var lastEndedAt: Instant?
    /// Tests that passed and failed.
    public private(set) var passes = 0
    public private(set) var failures = 0
    private var notBefore: Instant?
    /// Until then no test: the last one met a queue before a bucket's worth went over.
    public private(set) var noBucketUntil: Instant?
    /// A test met its queue only after a bucket's worth had gone over: the path has a bucket.
    public private(set) var bucketSeen = false
    static let noBucketPause: Duration = .seconds(30)
    private var step = 0
    /// What the last pass delivered: the next step's capacity. A capacity read low (a cut's
    /// delivered rate, up to 15 % under the link) lets the first step pass on the link's
    /// headroom alone, delivering all it sent; judged against what the first proved (that less
    /// a bucket over its span), the second then passed on the headroom plus a full bucket (the
    /// lab's 500 kbit/s TBF read as 411–419 kbit/s), and two passes declared growth that was not
    /// there. Against what the first delivered, the headroom is gone: where the first passed
    /// only on a bucket, that bucket is empty and the second fails at once.
    private var staircaseBase: Double?
    private var noBucketFailuresInARow = 0
    /// Tests passed since the last failure.
    public private(set) var passesInARow = 0
    /// After this many passes in a row the path has grown well past the capacity: probes take
    /// over (`BandwidthEstimator`).
    public static let passesToProbe = 2
    private var random: SeededRandom

    /// The over-rate of each step of the staircase. A failed step queues for as long as the
    /// feedback takes to say so, growing at its over-rate past the link: the second step fails
    /// wherever the first passed on a capacity read low, and at 1.4 × it queued 35–50 ms in the
    /// lab's 500 kbit/s step (one direction; the round trip carries both).
    static let overRates = [1.15, 1.25]
    /// What each step has to deliver over its capacity to pass, in buckets. A full bucket alone
    /// can bring the first step to a pass just before its queue shows; the second step, judged
    /// against what the first delivered, then meets an empty bucket at once and fails — so the
    /// first step need not outlast more than one bucket, and the second must outlast one with a
    /// margin (1.5 × is what tells a bucket from growth where the first passed on it). In the
    /// lab's step up (500 kbit/s → 2.5 Mbit/s) the first step at 1.5 buckets took ~3 s of a
    /// ramp of 8.8 s (median of 12 sides); at one bucket the ramp was 6.9 s (18 sides), and
    /// the second steps that failed after a first passed on a bucket queued 30–45 ms.
    static let passBuckets = [1.0, 1.5]
    /// Failures without a bucket in a row (`noBucketPause`): a single one may be a bucket the
    /// media had kept low (the estimate near the link's rate refills it slowly).
    static let noBucketFailures = 2
    /// A report whose newest packets queued longer ends the test.
    public static let failQueueMs = 5.0
    /// No test until no report showed even `failQueueMs` of queue for this long: a sender whose
    /// media keeps a few milliseconds standing at a bottleneck without a bucket has no room to
    /// test in.
    public static let queueFreeTime: Duration = .seconds(1)
    /// No test until the path has not queued for this long.
    public static let quietTime: Duration = .seconds(3)
    /// Between a failed test and the next: `retryMinimum` plus up to `retrySpread`, at random.
    static let retryMinimum: Duration = .seconds(3)
    static let retrySpread = 2.0
    /// After a failed test, everything leaves at `drainShare` of the capacity for `drainTime`,
    /// then at most at the capacity until `settleTime` (`BandwidthEstimator.pacingCeiling`).
    public static let drainShare = 0.85
    public static let drainTime: Duration = .milliseconds(500)
    /// Until this long after the failure, nothing leaves faster than the capacity.
    public static let settleTime: Duration = .milliseconds(1500)
    /// After a pass, the next step starts this soon.
    static let afterPass: Duration = .milliseconds(100)
    /// A test is at most this long, and at least `shortest`.
    static let longest: Duration = .seconds(3)
    static let shortest: Duration = .milliseconds(300)
    /// The least bucket a pass has to outlast before any was measured: the 16 KiB Linux's TBF
    /// is commonly given (the lab's).
    static let minimumBucketBits = 16_384.0 * 8

    public init(seed: UInt64) {
        random = SeededRandom(seed: seed)
    }

    /// A test's cluster if one may start now: past `capacity` (bits per second), a bucket of
    /// `bucketBits` measured so far; `id` names the cluster. The caller checked the conditions
    /// (`BandwidthEstimator`).
    public mutating func start(capacity: Double, bucketBits: Double, maximumRate: Double, id: Int, now: Instant) -> ProbeCluster? {
        guard running == nil, capacity > 0, notBefore.map({ now >= $0 }) ?? true,
              noBucketUntil.map({ now >= $0 }) ?? true else { return nil }
        let bucket = max(bucketBits, Self.minimumBucketBits)
        let passBits = Self.passBuckets[step] * bucket
        let capacity = step > 0 ? max(capacity, staircaseBase ?? capacity) : capacity
        // Fast enough that the pass fits in the longest test (at a low capacity the step's
        // over-rate could not outlast the bucket in time).
        let rate = min(maximumRate, max(Self.overRates[step] * capacity, capacity + passBits / Self.longest.seconds))
        guard rate > capacity * 1.05 else { return nil }
        let seconds = min(max(passBits / (rate - capacity), Self.shortest.seconds), Self.longest.seconds)
        // The cluster carries a quarter more than the pass needs: feedback on the last of it
        // comes ~100 ms after it left, and the arrivals it is judged on start with the first.
        let duration = Duration.milliseconds(Int64(seconds * 1250))
        running = Trial(cluster: id, rate: rate, capacity: capacity, passBits: min(passBits, (rate - capacity) * seconds), bucketBits: bucket,
                        deadline: now + duration + .seconds(1))
        return ProbeCluster(id: id, rate: rate, duration: duration)
    }

    /// A packet of the running test's cluster left with transport-wide number `sequence`.
    public mutating func sent(sequence: Int64, cluster: Int) {
        guard var trial = running, trial.cluster == cluster, trial.firstSequence == nil else { return }
        trial.firstSequence = sequence
        running = trial
    }

    /// A report's packets, with how long its newest packets queued: the outcome once the test
    /// ends.
    public mutating func judge(_ packets: [SentPacketHistory.Feedback], newestQueueDelayMs: Double, now: Instant) -> Outcome? {
        guard var trial = running else { return nil }
        var reported = false
        if let first = trial.firstSequence {
            for packet in packets where packet.sequence >= first {
                reported = true
                guard let arrival = packet.arrival else { continue }
                if let start = trial.firstArrival {
                    trial.arrivedBytes += packet.size
                    trial.lastArrival = max(trial.lastArrival ?? arrival, arrival)
                    if arrival < start { trial.firstArrival = arrival }
                } else {
                    trial.firstArrival = arrival
                    trial.lastArrival = arrival
                }
            }
        }
        running = trial
        if reported, newestQueueDelayMs > Self.failQueueMs {
            // A queue before a quarter of the smallest bucket arrived over the capacity: no
            // bucket hides the path's rate (a plain drop-tail queue, or a receiver's jitter) —
            // the cuts read its capacity, and tests here would only add to its queue.
            let pastBucket = (trial.arrivals?.excessBits ?? 0) >= Self.minimumBucketBits / 4
            if pastBucket {
                noBucketFailuresInARow = 0
                bucketSeen = true
            } else if !bucketSeen {
                // Once a test met its queue past a bucket, an early queue is that bucket not yet
                // refilled (the estimate holds just under the capacity after such a test,
                // `KnownCapacity.testMetQueue`: 16 KiB take ~13 s at 500 kbit/s), not a path
                // without one.
                noBucketFailuresInARow += 1
                if noBucketFailuresInARow >= Self.noBucketFailures { noBucketUntil = now + Self.noBucketPause }
            }
            return end(.queued(pastBucket: pastBucket), now: now)
        }
        if let (span, excessBits) = trial.arrivals, excessBits >= trial.passBits {
            let delivered = Double(trial.arrivedBytes) * 8 / span
            return end(.passed(delivered: delivered, proven: delivered - trial.bucketBits / span), now: now)
        }
        if now >= trial.deadline {
            // Never judged (its packets waited behind a full congestion window, or no feedback
            // came): nothing learnt, and nothing to drain.
            if trial.firstSequence == nil { noBucketUntil = now + Self.noBucketPause }
            return end(.failed, now: now)
        }
        return nil
    }

    /// The running test ends without an outcome (the encoders stopped wanting more, or the
    /// path queued for another reason); the next waits as after a failure.
    public mutating func abandon(now: Instant) {
        guard running != nil else { return }
        _ = end(.failed, now: now)
    }

    /// Probes took over from the staircase: the next test (once a queue showed the capacity
    /// again) starts at the first step.
    public mutating func abandonStaircase() {
        step = 0
        staircaseBase = nil
        passesInARow = 0
    }

    private mutating func end(_ outcome: Outcome, now: Instant) -> Outcome {
        running = nil
        lastEndedAt = now
        switch outcome {
        case let .passed(delivered, _):
            staircaseBase = delivered
            noBucketFailuresInARow = 0
            passes += 1
            passesInARow += 1
            step = min(step + 1, Self.overRates.count - 1)
            notBefore = now + Self.afterPass
        case .queued, .failed:
            failures += 1
            passesInARow = 0
            step = 0
            staircaseBase = nil
            let spread = Double(random.next() % 1_000) / 1_000 * Self.retrySpread
            notBefore = now + Self.retryMinimum + .milliseconds(Int64(spread * 1000))
        }
        return outcome
    }
}
