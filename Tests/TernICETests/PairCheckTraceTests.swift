import Foundation
import Testing
import TernSDP
import TernCore
@testable import TernICE

/// The check list in the ICE trace: libnice's debug narration parsed (lines captured from
/// libnice 0.1.21 on this machine, `NICE_DEBUG=nice`) and, live, two agents on loopback.
@Suite struct LibniceCheckLineTests {
    @Test(arguments: [
        ("Agent 0x7f95c4018070 : new pair 0x7f95bc00e800 : [127.0.0.1]:41994 --> [127.0.0.1]:41245",
         LibniceCheckLine.newPair(pair: 0x7f95bc00e800, local: "127.0.0.1:41994", remote: "127.0.0.1:41245")),
        ("Agent 0x7f95c4018070 : new pair 0x7f95bc00e800 : [::1]:5000 --> [fe80::1]:6000",
         .newPair(pair: 0x7f95bc00e800, local: "[::1]:5000", remote: "[fe80::1]:6000")),
        ("Agent 0x7f95c4018070 : pair 0x7f95bc00e800 state IN_PROGRESS (priv_conn_check_initiate)",
         .pairState(pair: 0x7f95bc00e800, state: "IN_PROGRESS")),
        ("Agent 0x7f95c4018070 : STUN-CC REQ [127.0.0.1]:41994 --> [127.0.0.1]:41245, socket=12, pair=0x7f95bc00e800 (c-id:1), tie=3986197598602438643, username='GBCL:Fbe1' (9), password='B8ccLqnsDxB8lIovGwDSGV' (22), prio=6e2003ff, controlling.",
         .checkSent(pair: 0x7f95bc00e800)),
        ("Agent 0x7f95c4018070 : marking pair 0x7f95bc00e800 (1:1) as nominated (regular nomination, controlling, use_cand_on_next_check=1).",
         .nominated(pair: 0x7f95bc00e800, detail: "regular nomination, controlling, use_cand_on_next_check=1")),
        ("Agent 0x7f95c40181f0 : marking pair 0x7f95bc00ee30 (1:1) as nominated",
         .nominated(pair: 0x7f95bc00ee30, detail: nil)),
        ("Agent 0x7f95c4018070 : stopping criterion: valid host-host pair",
         .stoppingCriterion("valid host-host pair")),
    ])
    func checkListLinesParse(line: String, expected: LibniceCheckLine) {
        let parsed = LibniceCheckLine.parse(Substring(line))
        #expect(parsed?.agent == (line.contains("0x7f95c40181f0 :") ? 0x7f95c40181f0 : 0x7f95c4018070))
        #expect(parsed?.line == expected)
    }

    @Test(arguments: [
        "Agent 0x7f95c4018070: Local selected pair: 1:1 1 UDP 127.0.0.1:41994 HOST",
        "Agent 0x7f95c4018070 : pair 0x7f95c401ec10 rechecking consent in 10.000s",
        "Agent 0x7f95c4018070 : new pair 0xzz : [127.0.0.1]:1 --> [127.0.0.1]:2",
        "Agent 0x7f95c4018070 : new pair 0x1 : [127.0.0.1]:port --> [127.0.0.1]:2",
        "setting SELECTED PAIR for component 1: 1:1 (prio:782003ff:782003ff:0).",
        "Agent 0x : pair", "Agent 0x1", "",
    ])
    func otherLinesAreIgnored(line: String) {
        #expect(LibniceCheckLine.parse(Substring(line)) == nil)
    }

    @Test func pairPriorityFollowsRFC8445() {
        // RFC 8445 §6.1.2.3 with G (controlling) = 2130706431, D (controlled) = 1694498815.
        let host = ICECandidate(foundation: "1", component: 1, transport: .udp, priority: 2_130_706_431,
                                address: "10.0.0.1", port: 1, type: .host)
        let srflx = ICECandidate(foundation: "2", component: 1, transport: .udp, priority: 1_694_498_815,
                                 address: "192.0.2.1", port: 2, type: .srflx)
        let pair = ICECandidatePair(local: host, remote: srflx)
        let expected = (UInt64(1_694_498_815) << 32) + 2 * 2_130_706_431 + 1
        #expect(pair.priority(localIsControlling: true) == expected)
        // Seen from the controlled side, G is the remote candidate: same value, no tie bit.
        #expect(ICECandidatePair(local: srflx, remote: host).priority(localIsControlling: false) == expected)
        #expect(pair.priority(localIsControlling: false) == expected - 1)
    }
}

@Suite(.serialized) struct PairCheckTraceTests {
    @Test func withTracePairChecksTheTraceShowsEachPairsChecksTheNominationAndWhyItWasSelected() async throws {
        var configuration = ICEConfiguration.loopback
        configuration.tracePairChecks = true
        let a = try ICEPeer(.controlling, configuration), b = try ICEPeer(.controlled, configuration)
        let tasks = try wire(a, b)
        #expect(await eventually { a.transport.selectedPair != nil && b.transport.selectedPair != nil })
        let pair = try #require(a.transport.selectedPair)
        let local = "\(pair.local.address):\(pair.local.port)", remote = "\(pair.remote.address):\(pair.remote.port)"
        // libnice logs the nomination check's success just after it reports the selection.
        #expect(await eventually {
            a.transport.trace.entries.contains { $0.event == .pairNominated(local: local, remote: remote, detail: "regular nomination, controlling, use_cand_on_next_check=1") }
        })
        let trace = a.transport.trace
        let states = trace.entries.compactMap { entry -> String? in
            guard case let .pairCheck(l, r, state, _) = entry.event, l == local, r == remote else { return nil }
            return state
        }
        #expect(states.first == "FROZEN")
        #expect(states.contains("IN_PROGRESS") && states.contains("SUCCEEDED"))
        let succeeded = trace.entries.compactMap { entry -> Int? in
            guard case let .pairCheck(l, r, "SUCCEEDED", sent) = entry.event, l == local, r == remote else { return nil }
            return sent
        }
        #expect(succeeded.first ?? 0 >= 1, "a check request was counted before the pair succeeded")
        #expect(trace.entries.contains { if case .checkListNote = $0.event { true } else { false } })
        #expect(zip(trace.entries, trace.entries.dropFirst()).allSatisfy { $0.time <= $1.time })
        #expect(trace.selection?.reason.hasPrefix("nominated by this agent (controlling, regular nomination") == true)
        #expect(b.transport.trace.selection?.reason.hasPrefix("nominated by the peer") == true)
        #expect(trace.description.contains("check \(local) -> \(remote) SUCCEEDED"))
        let decoded = try JSONDecoder().decode(ICETrace.self, from: JSONEncoder().encode(trace))
        #expect(decoded.entries == trace.entries)
        a.transport.close(); b.transport.close()
        for t in tasks { await t.value }
        #expect(NiceDebugTap.registeredCount == 0, "closing unregisters both agents")
    }

    @Test func withoutTracePairChecksNoCheckLinesAreKept() async throws {
        let a = try ICEPeer(.controlling), b = try ICEPeer(.controlled)
        let tasks = try wire(a, b)
        #expect(await eventually { a.transport.selectedPair != nil })
        #expect(!a.transport.trace.entries.contains { if case .pairCheck = $0.event { true } else { false } })
        #expect(a.transport.trace.selection != nil)
        a.transport.close(); b.transport.close()
        for t in tasks { await t.value }
    }
}
