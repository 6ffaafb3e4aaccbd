import Testing
import TernCore
import TernRTP

/// When probe clusters go out, and which runs retry a cluster that fell short.
@Suite struct ProbeControllerTests {
    static func at(_ milliseconds: Int64) -> Instant { .zero + .milliseconds(milliseconds) }

    static func started() -> ProbeController {
        var probes = ProbeController(maximumRate: 2_500_000)
        _ = probes.start(startRate: 300_000, now: at(0))
        return probes
    }

    @Test("after capacity tests proved growth, a cluster that measured under 70 % of its rate goes again at the same rate, twice at most; then the run ends")
    func aGrowthRunRetriesAShortCluster() {
        var probes = Self.started()
        let first = probes.capacityGrew(estimate: 600_000, provenByTests: true, now: Self.at(10_000))
        #expect(first.map(\.rate) == [1_200_000])
        var rates: [Double] = []
        var cluster = first[0].id
        for step in 1...3 {
            let next = probes.probeResult(cluster: cluster, measured: 700_000, applied: 700_000, now: Self.at(10_000 + Int64(step) * 100))
            rates += next.map(\.rate)
            if let id = next.first?.id { cluster = id }
        }
        #expect(rates == [1_200_000, 1_200_000], "retried twice at the cluster's rate, then stopped: \(rates)")
    }

    @Test("a growth run whose cluster got no result within a second sends it again; a retried cluster that gets through goes on at twice what was applied")
    func aLostClusterIsRetriedAndTheRunGoesOn() {
        var probes = Self.started()
        let first = probes.capacityGrew(estimate: 600_000, provenByTests: true, now: Self.at(10_000))
        let early = probes.retryLost(now: Self.at(10_900))
        #expect(early.isEmpty, "not before the result timeout")
        let again = probes.retryLost(now: Self.at(11_000))
        #expect(again.map(\.rate) == [1_200_000] && again[0].id != first[0].id)
        let next = probes.probeResult(cluster: again[0].id, measured: 1_180_000, applied: 1_180_000, now: Self.at(11_100))
        #expect(next.map(\.rate) == [2_360_000])
    }

    @Test("the start's clusters, a recovery probe and growth read from the excess alone do not retry: a short result there is the path's answer")
    func otherRunsDoNotRetry() throws {
        var probes = ProbeController(maximumRate: 2_500_000)
        let start = probes.start(startRate: 300_000, now: Self.at(0))
        let highest = try #require(start.max { $0.rate < $1.rate })
        let short = probes.probeResult(cluster: highest.id, measured: 600_000, applied: 600_000, now: Self.at(200))
        let lost = probes.retryLost(now: Self.at(5_000))
        #expect(short.isEmpty && lost.isEmpty)
        let recovery = probes.check(estimate: 200_000, deliveredPeak: 1_000_000, limited: true, queued: false, now: Self.at(10_000))
        #expect(recovery.map(\.rate) == [400_000])
        let recoveryShort = probes.probeResult(cluster: recovery[0].id, measured: 100_000, applied: 200_000, now: Self.at(10_200))
        #expect(recoveryShort.isEmpty)
        let excess = probes.capacityGrew(estimate: 600_000, now: Self.at(20_000))
        let excessShort = probes.probeResult(cluster: excess[0].id, measured: 700_000, applied: 700_000, now: Self.at(20_200))
        #expect(excess.count == 1 && excessShort.isEmpty)
    }
}
