import Testing
import TernCore
import TernRTP

/// The loss-based bound (draft-ietf-rmcat-gcc-02 §6) fed reports directly: what a burst of loss
/// cuts, how often, and when loss is the queue's and left to the delay-based estimate.
@Suite struct LossBasedEstimatorTests {
    static func at(_ milliseconds: Int64) -> Instant { .zero + .milliseconds(milliseconds) }

    /// One 100 ms report of `count` packets from `first` on, `lost` of them lost.
    static func report(first: Int64, count: Int, lost: Int, at milliseconds: Int64) -> [SentPacketHistory.Feedback] {
        (0..<count).map { index in
            SentPacketHistory.Feedback(sequence: first + Int64(index), sendTime: at(milliseconds - 50), size: 1_200,
                                       arrival: index < lost ? nil : .milliseconds(milliseconds + Int64(index)))
        }
    }

    @Test("one report with half its packets lost, then none: the bound is cut once for it, not again 300 ms later while the report is still in the one-second window")
    func aBurstCutsOnce() {
        var estimator = LossBasedEstimator(startRate: 1_000_000, minimumRate: 30_000, maximumRate: 5_000_000)
        var sequence: Int64 = 0
        var cuts = 0
        var previous = estimator.rate
        for step in 1...15 {
            let lost = step == 1 ? 10 : 0
            estimator.update(Self.report(first: sequence, count: 20, lost: lost, at: Int64(step) * 100), now: Self.at(Int64(step) * 100))
            sequence += 20
            if estimator.rate < previous { cuts += 1 }
            previous = estimator.rate
        }
        #expect(cuts == 1, "\(cuts) cuts for one burst; bound now \(Int(estimator.rate)) bit/s")
        #expect(estimator.rate >= 700_000, "bound \(Int(estimator.rate)) bit/s after one report of 50 % loss")
    }

    @Test("heavy loss while the delay-based estimate sees a queue is that queue's overflow: the bound is not cut for it; the same loss without a queue cuts it")
    func lossWithAQueueIsLeftToTheDelayBasedEstimate() {
        var queueing = LossBasedEstimator(startRate: 1_000_000, minimumRate: 30_000, maximumRate: 5_000_000)
        var open = queueing
        for step in Int64(1)...10 {
            let report = Self.report(first: (step - 1) * 20, count: 20, lost: 8, at: step * 100)
            queueing.update(report, now: Self.at(step * 100), queueing: true)
            open.update(report, now: Self.at(step * 100), queueing: false)
        }
        #expect(queueing.rate == 1_000_000)
        #expect(open.rate < 600_000, "40 % loss without a queue for a second: bound \(Int(open.rate)) bit/s")
    }

    @Test("the delay-based rate comes back up after a drain: a bound that only followed it down follows it up; one that loss cut stays below until it grows past")
    func theBoundFollowsTheDelayBasedRateUpUnlessLossHoldsIt() {
        var followed = LossBasedEstimator(startRate: 2_000_000, minimumRate: 30_000, maximumRate: 5_000_000)
        followed.follow(250_000)
        #expect(followed.rate == 375_000)
        followed.follow(425_000)
        #expect(followed.rate >= 425_000, "bound \(Int(followed.rate)) bit/s under a delay-based 425 kbit/s with no loss")

        var cut = LossBasedEstimator(startRate: 500_000, minimumRate: 30_000, maximumRate: 5_000_000)
        for step in Int64(1)...3 {
            cut.update(Self.report(first: (step - 1) * 20, count: 20, lost: 6, at: step * 100), now: Self.at(step * 100))
        }
        let afterLoss = cut.rate
        #expect(afterLoss < 500_000)
        cut.follow(500_000)
        #expect(cut.rate == afterLoss, "a bound loss cut is not lifted by the delay-based rate")
    }
}
