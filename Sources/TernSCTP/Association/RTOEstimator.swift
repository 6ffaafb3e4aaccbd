/// Retransmission timeout per RFC 6298 / RFC 9260 §6.3.1 (alpha 1/8, beta 1/4),
/// clamped to [RTO.Min, RTO.Max]. Karn's rule is applied by the caller: only
/// chunks sent once are measured.
struct RTOEstimator {
    private(set) var rto: Duration
    private(set) var srtt: Duration?
    private var rttvar: Duration = .zero
    let minimum: Duration
    let maximum: Duration

    init(initial: Duration, minimum: Duration, maximum: Duration) {
        rto = initial
        self.minimum = minimum
        self.maximum = maximum
    }

    /// Folds in an RTT measurement (§6.3.1 C2/C3).
    mutating func measure(_ rtt: Duration) {
        if let s = srtt {
            let delta = s > rtt ? s - rtt : rtt - s
            rttvar = rttvar * 3 / 4 + delta / 4
            srtt = s * 7 / 8 + rtt / 8
        } else {
            srtt = rtt
            rttvar = rtt / 2
        }
        rto = clamp((srtt ?? rtt) + max(rttvar * 4, .milliseconds(1)))
    }

    /// Doubles the RTO after a timeout (§6.3.3 E2).
    mutating func backOff() { rto = clamp(rto * 2) }

    private func clamp(_ d: Duration) -> Duration { min(max(d, minimum), maximum) }
}
