internal import TernCore

/// HyStart++ (RFC 9406): leaves the initial slow start when the round-trip time starts to grow,
/// instead of when packets are lost.
///
/// Classic slow start doubles cwnd every round trip until a loss. When the bottleneck is a
/// buffer in front of a slower receiver — a UDP socket on the peer's side, a router queue —
/// the loss comes only after that buffer has overflowed by up to a whole window, and the burst
/// of losses that follows ends in fast recovery and retransmission timeouts. HyStart++ watches
/// the minimum RTT of each round: once it rises by `clamp(lastRoundMinRTT / 8, 4 ms, 16 ms)` the queue is building, so cwnd
/// grows at a quarter of the rate for `cssRounds` rounds (Conservative Slow Start) and then
/// congestion avoidance takes over. A round ends when the cumulative ack passes the highest TSN
/// sent when it began (§4.2). Sans-I/O: RTT samples come from the caller.
struct HyStart {
    enum Phase: Equatable {
        /// Standard slow start.
        case slowStart
        /// Conservative Slow Start (§4.2): growth divided by `cssGrowthDivisor`.
        case conservative(baselineMinRTT: Duration, roundsLeft: Int)
        /// Slow start is over; the caller is in congestion avoidance.
        case done
    }

    // RFC 9406 §4.3 recommended constants.
    static let minRTTThreshold: Duration = .milliseconds(4)
    static let maxRTTThreshold: Duration = .milliseconds(16)
    static let minRTTDivisor = 8
    static let samplesPerRound = 8
    static let cssGrowthDivisor = 4
    static let cssRounds = 5

    private(set) var phase: Phase = .slowStart
    private var roundEnd: UInt32?
    private var lastRoundMinRTT: Duration?
    private var currentRoundMinRTT: Duration?
    private var samplesThisRound = 0

    /// What slow-start growth is divided by in the current phase.
    var growthDivisor: Int {
        if case .conservative = phase { return Self.cssGrowthDivisor }
        return 1
    }

    /// Folds in one SACK received during slow start. `cumulativeAck` is the SACK's cumulative
    /// TSN, `highestSent` the highest TSN sent so far, `rtt` a sample taken from a chunk that was
    /// sent once (Karn), if this SACK newly acknowledged one. Returns true when slow start
    /// should end now (ssthresh = cwnd).
    mutating func sackReceived(cumulativeAck: UInt32, highestSent: UInt32, rtt: Duration?) -> Bool {
        guard phase != .done else { return false }
        if roundEnd.map({ $0.tsnLessOrEqual(cumulativeAck) }) ?? true {
            if endRound() { return true }
            roundEnd = highestSent
        }
        guard let rtt else { return false }
        currentRoundMinRTT = min(currentRoundMinRTT ?? rtt, rtt)
        samplesThisRound += 1
        if phase == .slowStart, samplesThisRound >= Self.samplesPerRound,
           let current = currentRoundMinRTT, let last = lastRoundMinRTT {
            let threshold = min(max(last / Self.minRTTDivisor, Self.minRTTThreshold), Self.maxRTTThreshold)
            if current >= last + threshold {
                phase = .conservative(baselineMinRTT: current, roundsLeft: Self.cssRounds)
            }
        }
        return false
    }

    /// Slow start ended for another reason (loss, timeout): HyStart++ has nothing more to do.
    mutating func finish() { phase = .done }

    /// §4.2: at the end of a round, CSS either counts down, or goes back to slow start when the
    /// RTT increase was spurious. Returns true when CSS has run its rounds.
    private mutating func endRound() -> Bool {
        if case let .conservative(baseline, roundsLeft) = phase {
            if let current = currentRoundMinRTT, current < baseline {
                phase = .slowStart
            } else if roundsLeft <= 1 {
                phase = .done
                return true
            } else {
                phase = .conservative(baselineMinRTT: baseline, roundsLeft: roundsLeft - 1)
            }
        }
        lastRoundMinRTT = currentRoundMinRTT
        currentRoundMinRTT = nil
        samplesThisRound = 0
        return false
    }
}
