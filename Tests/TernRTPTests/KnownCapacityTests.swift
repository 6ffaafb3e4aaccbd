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

    @Test("near the capacity the estimate climbs 3 % of it a second, then holds 6 % over it: a full 16 KiB bucket empties at 30 kbit/s of excess, and the queue after it grows at 6 % of the link")
    func theClimbHoldsAPlateauOverTheCapacity() {
        var capacity = KnownCapacity()
        capacity.seen(delivered: 500_000, now: Self.at(0))
        let (estimate, time) = Self.climb(&capacity, from: 490_000, start: 0, limit: 5_000)
        #expect(estimate == 530_000 && time == 5_000, "\(Int(estimate)) after \(time) ms")
    }

    @Test("before any bucket was measured, 24 KiB sent over the capacity count as growth (1.5 x the 16 KiB a TBF is commonly given), and a probe may run once")
    func growthAfterTheDefaultBucket() {
        var capacity = KnownCapacity()
        capacity.seen(delivered: 500_000, now: Self.at(0))
        let (estimate, time) = Self.climb(&capacity, from: 500_000, start: 0, limit: 14_000)
        // 30 kbit over while climbing to the plateau (2 s), then 30 kbit/s: 196,608 bits at ~7.5 s.
        #expect(time >= 7_200 && time <= 7_800 && estimate == 530_000, "outgrown after \(time) ms at \(Int(estimate))")
        let first = capacity.takeGrew(), second = capacity.takeGrew()
        #expect(first && !second, "once")
        let after = capacity.increase(from: 600_000, delivered: 600_000, elapsed: 0.1, now: Self.at(time + 100))
        #expect(after == nil, "outgrown: the multiplicative increase")
    }

    @Test("a queue that appears past the capacity measures the bucket; the next climb waits for 1.5 x it (24 KiB at least)")
    func aMeasuredBucketDelaysTheNextGrowth() {
        var capacity = KnownCapacity()
        capacity.seen(delivered: 500_000, now: Self.at(0))
        _ = Self.climb(&capacity, from: 500_000, start: 0, limit: 6_000)  // ~150 kbit over, not yet grown
        capacity.seen(delivered: 500_000, now: Self.at(6_000))              // the bucket ran dry
        #expect(abs(capacity.bucketBits - 150_000) < 10_000, "bucket \(capacity.bucketBits)")
        let (_, time) = Self.climb(&capacity, from: 500_000, start: 6_000, limit: 14_000)
        #expect(time - 6_000 >= 8_300, "1.5 × 150 kbit = 225 kbit takes ~8.5 s: \(time - 6_000) ms")
    }

    @Test("a queue soon after growth was declared says it was not: the bucket grows to what was sent over by then")
    func falseGrowthTeachesTheBucket() {
        var capacity = KnownCapacity()
        capacity.seen(delivered: 500_000, now: Self.at(0))
        let (_, time) = Self.climb(&capacity, from: 500_000, start: 0, limit: 14_000)
        let grew = capacity.takeGrew()
        #expect(grew)
        // The multiplicative increase goes on past it; the excess is still counted.
        _ = capacity.increase(from: 600_000, delivered: 600_000, elapsed: 1, now: Self.at(time + 1_000))
        capacity.seen(delivered: 500_000, now: Self.at(time + 1_000))
        #expect(capacity.bucketBits > 196_608 + 90_000, "bucket \(capacity.bucketBits)")
    }

    @Test("ten seconds near the capacity with a small excess is no growth (a full bucket hides that much); ten seconds under it forgets it, without a probe")
    func onlyTheExcessSaysGrowth() {
        var near = KnownCapacity()
        near.seen(delivered: 500_000, now: Self.at(0))
        // Under it for 9 s, then a second at 2-3 % over: 15 kbit over, a tenth of a 16 KiB bucket.
        var estimate = 450_000.0
        for step in 1...110 {
            estimate = step <= 90 ? 450_000 + Double(step) * 500 : 510_000 + Double(step - 90) * 300
            _ = near.increase(from: estimate, delivered: estimate, elapsed: 0.1, now: Self.at(Int64(step) * 100))
        }
        let held = near.increase(from: estimate, delivered: estimate, elapsed: 0.1, now: Self.at(11_100))
        let grew = near.takeGrew()
        #expect(held != nil && !grew, "still additive at \(Int(estimate)), no probe")
        var below = KnownCapacity()
        below.seen(delivered: 200_000, now: Self.at(0))
        _ = below.increase(from: 150_000, delivered: nil, elapsed: 0.1, now: Self.at(100))
        let lateBelow = below.increase(from: 180_000, delivered: nil, elapsed: 0.1, now: Self.at(10_100))
        let grewBelow = below.takeGrew()
        #expect(lateBelow == nil && !grewBelow && below.rate == nil, "forgotten, nothing to probe")
    }

    @Test("after a capacity test met a queue past it the estimate holds at 98 % of the capacity, and bursts over it are no growth; a queue read again brings the plateau back")
    func aTestThatQueuedHoldsTheEstimateUnderTheCapacity() {
        var capacity = KnownCapacity()
        capacity.seen(delivered: 500_000, now: Self.at(0))
        _ = capacity.testMetQueue()
        var estimate = 480_000.0
        var grew = false
        for step in 1...200 {
            // Frames' bursts: every other half-second window delivers 10 % over the estimate.
            let delivered = step % 2 == 0 ? estimate * 1.1 : estimate * 0.9
            let next = capacity.increase(from: estimate, delivered: delivered, elapsed: 0.1, now: Self.at(Int64(step) * 100))
            grew = grew || next == nil || capacity.takeGrew()
            estimate = next ?? estimate
        }
        #expect(!grew && estimate == 490_000, "20 s held at \(Int(estimate)), growth declared: \(grew)")
        capacity.seen(delivered: 500_000, now: Self.at(20_100))
        let (again, _) = Self.climb(&capacity, from: 500_000, start: 20_100, limit: 2_000)
        #expect(again == 530_000, "the plateau 6 % over it once a queue read it (\(Int(again)))")
    }
}
