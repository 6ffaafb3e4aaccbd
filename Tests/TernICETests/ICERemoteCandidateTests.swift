import Synchronization
import Testing
import TernSDP
import TernCore
@testable import TernICE

/// What happens to remote candidates this agent cannot use: browsers' offers contain them.
@Suite struct ICERemoteCandidateTests {
    @Test(arguments: [
        "candidate:1 1 udp 2122262783 2001:db8::5 52000 typ host generation 0 ufrag abcd network-id 2",
        "candidate:2 1 tcp 1518283007 127.0.0.1 9 typ host tcptype active generation 0",
        "a=candidate:3 2 udp 2122260222 127.0.0.1 52001 typ host",
    ])
    func unusableButWellFormedCandidatesDoNotThrow(line: String) throws {
        let t = try ICETransport(configuration: .loopback, role: .controlled)
        try t.setRemoteCredentials(ICECredentials(ufrag: "abcd", pwd: "0123456789012345678901"))
        try t.addRemoteCandidate(line)
        // Each one is either given to libnice or dropped with a reason, never silently lost.
        let outcome = t.trace.entries.compactMap { entry -> String? in
            switch entry.event {
            case .remoteCandidateAdded: "added"
            case let .remoteCandidateDropped(_, reason): "dropped: \(reason)"
            default: nil
            }
        }
        #expect(outcome.count == 1)
        if line.contains(" tcp ") { #expect(outcome.first == "dropped: TCP candidate while ICE-TCP is off") }
        if line.contains("candidate:3 2") { #expect(outcome.first?.hasPrefix("dropped: component 2") == true) }
        t.close()
    }

    @Test func applicationChosenLocalCredentialsAreUsed() async throws {
        let a = try ICEPeer(.controlling), b = try ICEPeer(.controlled)
        let chosen = ICECredentials.random()
        try a.transport.setLocalCredentials(chosen)
        #expect(a.transport.localCredentials == chosen)
        let tasks = try wire(a, b)
        #expect(await eventually { a.transport.selectedPair != nil && b.transport.selectedPair != nil })
        a.transport.close(); b.transport.close()
        for t in tasks { await t.value }
    }

    /// An answerer applies the offer (remote candidates) before it gathers (JSEP order).
    @Test func remoteCandidatesAddedBeforeLocalGatheringAreKeptAndUsed() async throws {
        let a = try ICEPeer(.controlling), b = try ICEPeer(.controlled)
        a.forwarding.store(false, ordering: .relaxed)
        let tasksA = a.forward(to: b)
        try a.transport.setRemoteCredentials(b.transport.localCredentials)
        try b.transport.setRemoteCredentials(a.transport.localCredentials)
        try a.transport.gather()
        #expect(await eventually { a.transport.gatheringState == .complete })
        for c in a.transport.localCandidates { try b.transport.addRemoteCandidate(c.candidateString) }
        try b.transport.addRemoteEndOfCandidates()
        let added = b.transport.trace.entries.filter { if case .remoteCandidateAdded = $0.event { true } else { false } }
        #expect(added.count == a.transport.localCandidates.count)
        let tasksB = b.forward(to: a)
        try b.transport.gather()
        #expect(await eventually { a.transport.selectedPair != nil && b.transport.selectedPair != nil })
        a.transport.close(); b.transport.close()
        await tasksA.value; await tasksB.value
    }

    /// What a description carries (credentials, candidates, end-of-candidates) in one call:
    /// unusable lines are dropped with a reason, the rest connect, and role changes made before
    /// the checks (a candidate pool learning its role) are what libnice uses.
    @Test func aWholeDescriptionAppliedInOneCallConnectsAndDropsWhatItCannotUse() async throws {
        let a = try ICEPeer(.controlling), b = try ICEPeer(.controlling)
        try b.transport.setRole(.controlled)
        #expect(b.transport.role == .controlled)
        a.forwarding.store(false, ordering: .relaxed)
        b.forwarding.store(false, ordering: .relaxed)
        let tasks = [a.forward(to: b), b.forward(to: a)]
        try a.transport.gather()
        try b.transport.gather()
        #expect(await eventually { a.transport.gatheringState == .complete && b.transport.gatheringState == .complete })
        let rtcpCandidate = "candidate:9 2 UDP 2015364094 127.0.0.1 9 typ host"
        try b.transport.applyRemoteDescription(credentials: a.transport.localCredentials,
                                               candidates: a.transport.localCandidates.map(\.candidateString) + [rtcpCandidate],
                                               endOfCandidates: true)
        try a.transport.applyRemoteDescription(credentials: b.transport.localCredentials,
                                               candidates: b.transport.localCandidates.map(\.candidateString),
                                               endOfCandidates: true)
        #expect(await eventually { a.transport.selectedPair != nil && b.transport.selectedPair != nil })
        let dropped = b.transport.trace.entries.compactMap { entry -> String? in
            if case let .remoteCandidateDropped(_, reason) = entry.event { reason } else { nil }
        }
        #expect(dropped == ["component 2 is unused with rtcp-mux"])
        #expect(b.transport.trace.entries.contains { if case .remoteEndOfCandidates = $0.event { true } else { false } })
        #expect(a.transport.trace.selection?.reason.hasPrefix("nominated by this agent (controlling") == true)
        #expect(b.transport.trace.selection?.reason.hasPrefix("nominated by the peer") == true)
        a.transport.close(); b.transport.close()
        for task in tasks { await task.value }
    }
}
