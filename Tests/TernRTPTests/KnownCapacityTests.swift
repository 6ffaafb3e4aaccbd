import Testing
import TernCore
import TernRTP

/// The increase near a capacity a queue showed, and when it counts as outgrown.
@Suite struct KnownCapacityTests {
    static func at(_ milliseconds: Int64) -> Instant { .zero + .milliseconds(milliseconds) }

    /// Increases from `estimate` in 100 ms steps from `start` until the capacity counts as
    /// outgrown or `limit` ms pass; returns the estimate and the time reached.
    static func climb(_ capacity: inout KnownCapacity, from estimate: Double, start: Int64, limit: Int64) -> (Double, Int64) {
        var estimate = estimate
        var now = start
        while now < start + limit {
            now += 100
            guard let next = capacity.increase(from: estimate, delivered: estimate, elapsed: 0.1, now: at(now)) else { return (estimate, now) }
            estimate = next
        }
        return (estimate, now)
    }

    @Test("nothing seen: the multiplicative increase applies; under 95 % of a capacity seen, too")
    func farFromACapacityTheIncreaseIsNotAdditive() {
        var capacity = KnownCapacity()
        let unseen = capacity.increase(from: 400_000, delivered: nil, elapsed: 0.1, now: Self.at(0))
        #expect(unseen == nil)
        capacity.seen(delivered: 500_000, now: Self.at(0))
        let far = capacity.increase(from: 400_000, delivered: nil, elapsed: 0.1, now: Self.at(100))
        #expect(far == nil)
        let near = capacity.increase(from: 500_000, delivered: nil, elapsed: 0.1, now: Self.at(200))
        #expect(near == 501_500, "3 % of 500 kbit/s a second")
    }

    @Test("before any bucket was measured, 24 KiB sent over the capacity count as growth (1.5 x the 16 KiB a TBF is commonly given), and a probe may run once")
    func growthAfterTheDefaultBucket() {
        var capacity = KnownCapacity()
        capacity.seen(delivered: 500_000, now: Self.at(0))
        let (estimate, time) = Self.climb(&capacity, from: 500_000, start: 0, limit: 9_000)
        // Excess 0.5 × 15 kbit/s² × t² = 196,608 bits: t ≈ 5.1 s, about 12 % over.
        #expect(time >= 5_000 && time <= 5_300, "outgrown after \(time) ms at \(Int(estimate))")
        let first = capacity.takeGrew(), second = capacity.takeGrew()
        #expect(first && !second, "once")
        let after = capacity.increase(from: 600_000, delivered: 600_000, elapsed: 0.1, now: Self.at(time + 100))
        #expect(after == nil, "outgrown: the multiplicative increase")
    }

    @Test("a queue that appears past the capacity measures the bucket; the next climb waits for 1.5 x it (24 KiB at least)")
    func aMeasuredBucketDelaysTheNextGrowth() {
        var capacity = KnownCapacity()
        capacity.seen(delivered: 500_000, now: Self.at(0))
        _ = Self.climb(&capacity, from: 500_000, start: 0, limit: 4_000)  // 120 kbit over, not yet grown
        capacity.seen(delivered: 500_000, now: Self.at(4_000))              // the bucket ran dry
        #expect(abs(capacity.bucketBits - 120_000) < 10_000, "bucket \(capacity.bucketBits)")
        let (_, time) = Self.climb(&capacity, from: 500_000, start: 4_000, limit: 9_000)
        #expect(time - 4_000 >= 5_000, "1.5 × 120 kbit = 180 kbit, the 196 kbit floor, takes 5.1 s: \(time - 4_000) ms")
    }

    @Test("a queue soon after growth was declared says it was not: the bucket grows to what was sent over by then")
    func falseGrowthTeachesTheBucket() {
        var capacity = KnownCapacity()
        capacity.seen(delivered: 500_000, now: Self.at(0))
        let (_, time) = Self.climb(&capacity, from: 500_000, start: 0, limit: 9_000)
        let grew = capacity.takeGrew()
        #expect(grew)
        // The multiplicative increase goes on past it; the excess is still counted.
        _ = capacity.increase(from: 600_000, delivered: 600_000, elapsed: 1, now: Self.at(time + 1_000))
        capacity.seen(delivered: 500_000, now: Self.at(time + 1_000))
        #expect(capacity.bucketBits > 196_608 + 90_000, "bucket \(capacity.bucketBits)")
    }

    @Test("ten seconds past the capacity without a queue: it grew (a bucket would have run dry); under it, nothing to probe")
    func memoryRunsOut() {
        var above = KnownCapacity()
        above.seen(delivered: 200_000, now: Self.at(0))
        _ = above.increase(from: 201_000, delivered: nil, elapsed: 0.1, now: Self.at(100))
        let late = above.increase(from: 205_000, delivered: nil, elapsed: 0.1, now: Self.at(10_100))
        let grew = above.takeGrew()
        #expect(late == nil && grew)
        var below = KnownCapacity()
        below.seen(delivered: 200_000, now: Self.at(0))
        _ = below.increase(from: 195_000, delivered: nil, elapsed: 0.1, now: Self.at(100))
        let lateBelow = below.increase(from: 199_000, delivered: nil, elapsed: 0.1, now: Self.at(10_100))
        let grewBelow = below.takeGrew()
        #expect(lateBelow == nil && !grewBelow)
    }
}
