import Testing
import TernCore
@testable import TernSCTP

/// RFC 9406 HyStart++ as the association uses it: rounds end when the cumulative ack passes the
/// highest TSN sent at the round's start; each round's minimum RTT is compared with the last.
@Suite struct HyStartTests {
    /// Feeds one round of `samples` SACKs, all with `rtt`; returns true if slow start ended.
    /// Round r covers TSNs r*100 ... r*100+99.
    static func feedRound(_ hyStart: inout HyStart, round: Int, rtt: Duration?, samples: Int = 10) -> Bool {
        var ended = false
        for i in 0..<samples {
            let cumulative = UInt32(round * 100 + i * (90 / samples))
            if hyStart.sackReceived(cumulativeAck: cumulative, highestSent: UInt32(round * 100 + 99), rtt: rtt) { ended = true }
        }
        return ended
    }

    @Test func aSteadyRoundTripTimeNeverEndsSlowStart() {
        var hyStart = HyStart()
        for round in 0..<50 { #expect(!Self.feedRound(&hyStart, round: round, rtt: .milliseconds(30))) }
        #expect(hyStart.phase == .slowStart)
        #expect(hyStart.growthDivisor == 1)
    }

    @Test func aRisingRoundTripTimeEntersConservativeSlowStartThenEndsItAfterFiveRounds() {
        var hyStart = HyStart()
        for round in 0..<3 { #expect(!Self.feedRound(&hyStart, round: round, rtt: .milliseconds(10))) }
        // 10 ms → 20 ms exceeds the threshold clamp(10 ms / 8, 4 ms, 16 ms) = 4 ms.
        #expect(!Self.feedRound(&hyStart, round: 3, rtt: .milliseconds(20)))
        #expect(hyStart.phase == .conservative(baselineMinRTT: .milliseconds(20), roundsLeft: 5))
        #expect(hyStart.growthDivisor == 4)
        for round in 4..<8 { #expect(!Self.feedRound(&hyStart, round: round, rtt: .milliseconds(20))) }
        #expect(Self.feedRound(&hyStart, round: 8, rtt: .milliseconds(20)), "five CSS rounds, then congestion avoidance")
        #expect(hyStart.phase == .done)
    }

    @Test func anIncreaseSmallerThanTheThresholdIsIgnored() {
        var hyStart = HyStart()
        #expect(!Self.feedRound(&hyStart, round: 0, rtt: .milliseconds(10)))
        // +3 ms is under the 4 ms floor of the threshold.
        #expect(!Self.feedRound(&hyStart, round: 1, rtt: .milliseconds(13)))
        #expect(hyStart.phase == .slowStart)
    }

    @Test func anRTTThatFallsBackBelowTheBaselineResumesSlowStart() {
        var hyStart = HyStart()
        #expect(!Self.feedRound(&hyStart, round: 0, rtt: .milliseconds(10)))
        #expect(!Self.feedRound(&hyStart, round: 1, rtt: .milliseconds(30)))
        #expect(hyStart.phase == .conservative(baselineMinRTT: .milliseconds(30), roundsLeft: 5))
        #expect(!Self.feedRound(&hyStart, round: 2, rtt: .milliseconds(10)))
        #expect(!Self.feedRound(&hyStart, round: 3, rtt: .milliseconds(10)))
        #expect(hyStart.phase == .slowStart, "§4.2: the increase was spurious")
    }

    @Test func roundsWithFewerThanEightSamplesDecideNothing() {
        var hyStart = HyStart()
        #expect(!Self.feedRound(&hyStart, round: 0, rtt: .milliseconds(10), samples: 7))
        #expect(!Self.feedRound(&hyStart, round: 1, rtt: .milliseconds(100), samples: 7))
        #expect(hyStart.phase == .slowStart)
    }

    @Test func afterALossNothingMoreIsDecided() {
        var hyStart = HyStart()
        hyStart.finish()
        #expect(!Self.feedRound(&hyStart, round: 0, rtt: .milliseconds(10)))
        #expect(!Self.feedRound(&hyStart, round: 1, rtt: .milliseconds(100)))
        #expect(hyStart.phase == .done)
    }
}
