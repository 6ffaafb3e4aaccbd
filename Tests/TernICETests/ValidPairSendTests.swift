import Foundation
import Testing
import TernCore
@testable import TernICE

/// Data before nomination and the first check without an idle tick: the two properties of
/// Tern's libnice patch (Patches/libnice-0.1.21-tern.patch, installed by Scripts/libnice, which
/// `make test` runs), on two real agents on loopback. They run wherever the patched library is
/// loaded, and always as root (CI, `make test`): there a stock library is a failure to report.
@Suite(.enabled(if: ICETransport.libniceHasTernPatch || getuid() == 0,
                "libnice without Tern's patch, and not root: run Scripts/libnice as root"))
struct ValidPairSendTests {
    /// Loopback agents with a long pacing interval: regular nomination takes the controlling
    /// agent three ticks (Docs/ICE.md, "Nomination"), so with 1.5 s ticks its selection comes
    /// ≥ 3 s after the first successful check: "before nomination" is a wide window even when a
    /// loaded machine holds the test's tasks for a second, not a race.
    private func slowTicks(_ pacing: Duration, sendsOnValidPairs: Bool = true,
                           firstCheckAtOnce: Bool = true) -> ICEConfiguration {
        var configuration = ICEConfiguration.loopback
        configuration.stunPacing = pacing
        configuration.sendsOnValidPairs = sendsOnValidPairs
        configuration.firstCheckAtOnce = firstCheckAtOnce
        return configuration
    }

    private func validPairs(_ peer: ICEPeer) -> [ICECandidatePair] {
        peer.events.withLock { $0.compactMap { if case let .validPairFound(p) = $0 { p } else { nil } } }
    }

    /// Nanoseconds of the first trace entry matching `matches`.
    private func traceTime(_ peer: ICEPeer, _ matches: (ICETrace.Event) -> Bool) -> Int64? {
        peer.transport.trace.entries.first { matches($0.event) }?.time
    }

    @Test func theInstalledLibniceCarriesTernsPatch() throws {
        let transport = try ICETransport(configuration: .loopback, role: .controlling)
        defer { transport.close() }
        #expect(ICETransport.libniceHasTernPatch)
        #expect(transport.sendsOnValidPairs,
                "libnice without Tern's patch is loaded: run Scripts/libnice as root (make test does)")
    }

    @Test func dataLeavesOnTheFirstValidPairBeforeNomination() async throws {
        let controlling = try ICEPeer(.controlling, slowTicks(.milliseconds(1_500)))
        let controlled = try ICEPeer(.controlled, slowTicks(.milliseconds(1_500)))
        let tasks = try wire(controlling, controlled)
        #expect(await eventually { !validPairs(controlled).isEmpty })
        // Nomination is still seconds away: no pair is selected, yet `send` works.
        #expect(controlled.transport.selectedPair == nil)
        try controlled.transport.send([1, 2, 3])
        #expect(await eventually { controlling.received.withLock { $0.contains([1, 2, 3]) } })
        #expect(await eventually { !controlled.selectedPairs.isEmpty })
        // The pair data went on is the one nomination selects (one host pair on loopback), and
        // the events and the trace say which came first.
        #expect(validPairs(controlled).count == 1)
        #expect(validPairs(controlled).first?.local == controlled.transport.selectedPair?.local)
        let events = controlled.events.withLock { $0 }
        let valid = events.firstIndex { if case .validPairFound = $0 { true } else { false } }
        let selected = events.firstIndex { if case .selectedPairChanged = $0 { true } else { false } }
        #expect(valid != nil && selected != nil && valid! < selected!)
        let validAt = traceTime(controlled) { if case .validPair = $0 { true } else { false } }
        let selectedAt = traceTime(controlled) { if case .selectedPair = $0 { true } else { false } }
        #expect(validAt != nil && selectedAt != nil && validAt! < selectedAt!)
        controlling.transport.close(); controlled.transport.close()
        for t in tasks { await t.value }
    }

    @Test func withoutTheOptionDataWaitsForTheSelectedPair() async throws {
        let controlling = try ICEPeer(.controlling, slowTicks(.milliseconds(200), sendsOnValidPairs: false))
        let controlled = try ICEPeer(.controlled, slowTicks(.milliseconds(200), sendsOnValidPairs: false))
        #expect(!controlled.transport.sendsOnValidPairs)
        let tasks = try wire(controlling, controlled)
        #expect(throws: DatagramTransportError.notConnected) { try controlled.transport.send([9]) }
        #expect(throws: DatagramTransportError.notConnected) { _ = try controlled.transport.send(batch: [[9], [10]][...]) }
        #expect(await eventually { controlled.transport.selectedPair != nil })
        try controlled.transport.send([4, 5])
        #expect(await eventually { controlling.received.withLock { $0.contains([4, 5]) } })
        #expect(validPairs(controlled).isEmpty && validPairs(controlling).isEmpty)
        controlling.transport.close(); controlled.transport.close()
        for t in tasks { await t.value }
    }

    @Test(arguments: [true, false])
    func theFirstCheckLeavesWithoutWaitingOnePacingInterval(atOnce: Bool) async throws {
        // Ta = 3 s. At once, the first check and its answer take milliseconds on loopback;
        // libnice's own schedule sends it when the timer first fires, a whole Ta later.
        let pacing = Duration.seconds(3)
        let controlling = try ICEPeer(.controlling, slowTicks(pacing, firstCheckAtOnce: atOnce))
        let controlled = try ICEPeer(.controlled, slowTicks(pacing, firstCheckAtOnce: atOnce))
        let tasks = try wire(controlling, controlled)
        #expect(await eventually { !validPairs(controlled).isEmpty && !validPairs(controlling).isEmpty })
        // Trace times share one monotonic clock. A check timer starts when its agent gets a
        // remote candidate, and without a check nothing becomes valid; a triggered check answers
        // the other agent's check. So the first pair valid anywhere says when the first check left.
        let peers = [controlling, controlled]
        let candidateAt = peers.compactMap { traceTime($0) { if case .remoteCandidateAdded = $0 { true } else { false } } }
        let validAt = peers.compactMap { traceTime($0) { if case .validPair = $0 { true } else { false } } }
        try #require(candidateAt.count == 2 && validAt.count == 2)
        if atOnce {
            for (candidate, valid) in zip(candidateAt, validAt) {
                let waited = Duration.nanoseconds(valid - candidate)
                #expect(waited < .milliseconds(1_500), "first valid pair \(waited) after the remote candidate")
            }
        } else {
            let waited = Duration.nanoseconds(try #require(validAt.min()) - (try #require(candidateAt.min())))
            #expect(waited >= .milliseconds(2_900), "first valid pair \(waited) after the first remote candidate")
        }
        controlling.transport.close(); controlled.transport.close()
        for t in tasks { await t.value }
    }
}
