public import TernCore

/// The capacity a path showed the last time a queue made the estimate come down, and how the
/// estimate may grow near it. A shaper's token bucket (the lab's TBF holds 16 KiB; ISP
/// policers hold more) lets a sender past the path's rate without a queue until the bucket is
/// empty: at the 8 % a second of draft-ietf-rmcat-gcc-02 §5.5 the rate is ~20 % over a
/// 500 kbit/s link by then, and the queue that follows takes a round of cut and drain.
///
/// Near a capacity a queue showed, the increase is additive instead, `increasePerSecond` of it
/// a second, and it holds at `plateauShare` over it: the excess a bucket absorbs comes at a
/// steady 4 % of the link, so once the bucket runs dry the queue grows at 4 % of the link's rate
/// while the feedback (~100 ms behind) and the cut catch up — ~25 ms of queue at the peak on the
/// lab's 500 kbit/s TBF (`BandwidthEstimatorTests`), where the additive climb alone was ~12 %
/// over by then and queued ~45 ms.
///
/// A bucket is not always there, and a path's capacity does grow: the excess sent over the
/// capacity since it was seen is counted (from what the path delivered), and once it is half
/// again as much as the largest a bucket was seen to hide (at least `minimumBucket`), the
/// capacity is taken to have grown — the estimate goes back to its multiplicative increase and
/// a probe can find how far (`takeGrew`). Only the excess says so: an estimate that sat under
/// the capacity most of the time since it was seen has sent nothing a bucket would have run dry
/// on (a probe then passes a full bucket at line rate and reads the link as twice as fast). A
/// capacity is forgotten, without a probe, once the estimate has stayed under `nearShare` of it
/// for `memory`. On a path without a bucket that costs seconds of slow growth after each queue
/// (a recovery probe, `ProbeController.check`, may find the capacity sooner); on one with a
/// bucket it is what keeps the queue short. Sans-I/O.
public struct KnownCapacity: Sendable {
    /// What the path delivered when a queue last made the rate come down, bits per second,
    /// and when.
    public private(set) var rate: Double?
    private var seenAt: Instant?
    /// When the estimate was last near the capacity (or it was seen).
    private var nearAt: Instant?
    /// Bits the path delivered over `rate` since it was seen: what a bucket let through.
    private var excessBits = 0.0
    /// The most a bucket was seen to hide: the excess when a queue appeared past the capacity
    /// (also after the capacity was taken to have grown: a queue that follows says it had not).
    public private(set) var bucketBits = 0.0
    /// When the capacity was taken to have grown: the multiplicative increase applies until a
    /// queue is seen.
    private var outgrownAt: Instant?
    /// A queue this soon after the capacity was taken to have grown says it had not.
    static let falseGrowth: Duration = .seconds(3)
    private var grew = false
    /// While a capacity test runs (`CapacityTest`), what the path delivers over the estimate (the
    /// test's padding) is not counted as excess.
    public var testing = false
    /// A capacity test met a queue just past the capacity (`testMetQueue`): the path has no room
    /// over it. The plateau is for a capacity read low, and the tests correct that now.
    public private(set) var heldByTest = false

    static let memory: Duration = .seconds(10)
    static let increasePerSecond = 0.03
    static let plateauShare = 0.06
    /// From this share of the capacity on, the increase is additive: the capacity seen is the
    /// delivered rate of a half-second window, a few percent off either way, and arriving at it
    /// at 8 % a second shortens the cycle and raises the overshoot (40 → 45 ms in
    /// `aShaperStepDrainsTheQueueAndKeepsItShort` with 1.0).
    static let nearShare = 0.95
    /// Where the estimate holds after a test met a queue (`testMetQueue`): under the capacity, so
    /// the bucket the test emptied refills (16 KiB in ~6.5 s at 1 Mbit/s) and frames' bursts find
    /// tokens. In the lab's 1 Mbit/s calls 0.95 used 0.845 of the link (queue p95 2–9 ms), 0.97
    /// 0.865, 0.98 0.883 (queue p95 10 ms); at 500 kbit/s 0.98 let one side of six cut once from
    /// the media's own queue.
    static let heldShare = 0.98
    /// The least excess taken as proof that the capacity grew, before any bucket was measured:
    /// half again as much as the 16 KiB Linux's TBF is commonly given (the lab's).
    static let minimumBucket = 1.5 * 16_384 * 8

    public init() {}

    /// A queue made the estimate come down with the path delivering `delivered` bit/s at `now`.
    public mutating func seen(delivered: Double, now: Instant) {
        // A queue past the capacity measures the bucket that hid it — also one that follows
        // soon after the capacity was taken to have grown: it had not, the bucket was larger.
        let withinMemory = seenAt.map { now - $0 < Self.memory } ?? false
        let soonAfterOutgrown = outgrownAt.map { now - $0 < Self.falseGrowth } ?? false
        if withinMemory || soonAfterOutgrown { bucketBits = max(bucketBits, excessBits) }
        read(delivered, now: now)
    }

    /// The estimate after `elapsed` seconds of increase from `estimate` near the capacity, with
    /// the path delivering `delivered` bit/s lately, or nil where the multiplicative increase
    /// applies (no capacity known, the estimate under `nearShare` of it, or the capacity outgrown).
    public mutating func increase(from estimate: Double, delivered: Double?, elapsed: Double, now: Instant) -> Double? {
        guard let rate, let nearAt else { return nil }
        // A capacity test's padding is not growth (the test judges that itself): while one
        // runs, only what the estimate lets the media send counts.
        let counted = testing ? min(delivered ?? estimate, estimate) : delivered ?? estimate
        // Held at the capacity, what the media delivers over it is its frames' burstiness (a
        // half-second window of it runs over the rate as often as under), not growth: the tests
        // look for that.
        if !heldByTest { excessBits += max(0, counted - rate) * elapsed }
        guard outgrownAt == nil else { return nil }
        guard estimate >= Self.nearShare * rate else {
            // Untested for `memory`: too old to hold the estimate back, too old to probe from.
            if now - nearAt >= Self.memory { forget() }
            return nil
        }
        self.nearAt = now
        if excessBits > max(1.5 * bucketBits, Self.minimumBucket) {
            outgrownAt = now
            grew = true
            return nil
        }
        let plateau = rate * (heldByTest ? Self.heldShare : 1 + Self.plateauShare)
        return max(estimate, min(estimate + Self.increasePerSecond * rate * elapsed, plateau))
    }

    /// A capacity test (`CapacityTest`) met a queue past the capacity: the estimate holds at
    /// `heldShare` of it, no plateau over it, until a queue or a passed test reads it again. In the
    /// lab's 500 kbit/s step the climb to the plateau after such a test queued 60–80 ms within
    /// 2 s: the test had emptied the bucket, and the capacity was read within 2 % of the link.
    /// Just under it the bucket refills while the next test waits. Returns the rate to hold at
    /// (nil: no capacity known).
    public mutating func testMetQueue() -> Double? {
        guard let rate else { return nil }
        heldByTest = true
        return Self.heldShare * rate
    }

    /// A capacity test saw the path carry `delivered` bits per second over the capacity
    /// without a queue: that is the capacity now (the bucket measured stays).
    public mutating func raise(to delivered: Double, now: Instant) {
        guard delivered > (rate ?? 0) else { return }
        read(delivered, now: now)
    }

    /// The capacity is `delivered` as of `now`: excess counted from here, growth and the hold
    /// undone.
    private mutating func read(_ delivered: Double, now: Instant) {
        rate = delivered
        seenAt = now
        nearAt = now
        excessBits = 0
        outgrownAt = nil
        heldByTest = false
    }

    /// Whether the capacity was taken to have grown and the multiplicative increase applies.
    public var isOutgrown: Bool { outgrownAt != nil }

    /// Capacity tests showed growth past the capacity: the multiplicative increase applies until
    /// a queue is seen again.
    public mutating func markOutgrown(now: Instant) {
        guard rate != nil else { return }
        outgrownAt = now
        excessBits = 0
    }

    private mutating func forget() {
        rate = nil
        heldByTest = false
        nearAt = nil
        excessBits = 0
    }

    /// Whether the capacity was outgrown since the last call.
    public mutating func takeGrew() -> Bool {
        defer { grew = false }
        return grew
    }
}
