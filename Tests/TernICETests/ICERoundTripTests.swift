import Foundation
import Testing
import TernSDP
import TernCore
@testable import TernICE

/// The selected pair's round-trip time, measured with Tern's own STUN Binding requests
/// answered by the peer's libnice (Docs/ICE.md, "Selected pair RTT").
@Suite(.serialized) struct ICERoundTripTests {
    @Test func bothSidesMeasureTheSelectedPairRoundTripTimeOnLoopback() async throws {
        let a = try ICEPeer(.controlling), b = try ICEPeer(.controlled)
        let tasks = try wire(a, b)
        #expect(await eventually { a.transport.selectedPair != nil && b.transport.selectedPair != nil })
        for side in [a, b] {
            #expect(await eventually { (side.transport.selectedPair?.responsesReceived ?? 0) > 0 })
            let pair = try #require(side.transport.selectedPair)
            let rtt = try #require(pair.roundTripTime)
            #expect(rtt > .zero)
            #expect(pair.totalRoundTripTime >= rtt)
            #expect(pair.requestsSent >= pair.responsesReceived)
            #expect(side.transport.trace.entries.contains { if case .roundTripMeasured = $0.event { true } else { false } })
        }
        // The probes' answers never reach the data path; data still flows both ways.
        #expect(a.received.withLock { $0.isEmpty } && b.received.withLock { $0.isEmpty })
        try a.transport.send([1, 2, 3]); try b.transport.send([4, 5, 6])
        #expect(await eventually { b.received.withLock { $0 == [[1, 2, 3]] } && a.received.withLock { $0 == [[4, 5, 6]] } })
        print("RTT trace (controlling):\n\(a.transport.trace)")
        a.transport.close(); b.transport.close()
        for t in tasks { await t.value }
    }

    @Test func aPeerWithProbingOffStillAnswersAndSendsNoProbes() async throws {
        var quiet = ICEConfiguration.loopback
        quiet.roundTripProbeInterval = nil
        let a = try ICEPeer(.controlling), b = try ICEPeer(.controlled, quiet)
        let tasks = try wire(a, b)
        #expect(await eventually { (a.transport.selectedPair?.responsesReceived ?? 0) > 0 })
        #expect((a.transport.selectedPair?.roundTripTime ?? .zero) > .zero)
        let quietPair = try #require(b.transport.selectedPair)
        #expect(quietPair.requestsSent == 0 && quietPair.responsesReceived == 0 && quietPair.roundTripTime == nil)
        #expect(!b.transport.trace.entries.contains { if case .roundTripMeasured = $0.event { true } else { false } })
        a.transport.close(); b.transport.close()
        for t in tasks { await t.value }
    }

    @Test func roundTripEntriesSurviveTheTraceJSONRoundTrip() async throws {
        let a = try ICEPeer(.controlling), b = try ICEPeer(.controlled)
        let tasks = try wire(a, b)
        #expect(await eventually { (a.transport.selectedPair?.responsesReceived ?? 0) > 0 })
        let trace = a.transport.trace
        let decoded = try JSONDecoder().decode(ICETrace.self, from: JSONEncoder().encode(trace))
        #expect(decoded.entries == trace.entries)
        #expect(trace.description.contains("selected pair RTT"))
        a.transport.close(); b.transport.close()
        for t in tasks { await t.value }
    }
}
