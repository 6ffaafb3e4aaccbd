import Foundation
import Testing
import TernSDP
import TernCore
@testable import TernICE

/// Failure paths on loopback with real libnice agents.
@Suite(.serialized) struct ICEFailureTests {
    /// Short STUN timers so failure comes in seconds, not the default ~tens of seconds.
    static var impatient: ICEConfiguration {
        var c = ICEConfiguration.loopback
        c.stunInitialTimeout = .milliseconds(50)
        c.stunMaxRetransmissions = 3
        return c
    }

    @Test func wrongRemotePasswordFailsWithAReason() async throws {
        let a = try ICEPeer(.controlling, Self.impatient), b = try ICEPeer(.controlled, Self.impatient)
        let right = b.transport.localCredentials
        try a.transport.setRemoteCredentials(ICECredentials(ufrag: right.ufrag, pwd: String(right.pwd.reversed())))
        try b.transport.setRemoteCredentials(a.transport.localCredentials)
        let tasks = [a.forward(to: b), b.forward(to: a)]
        try a.transport.gather(); try b.transport.gather()
        #expect(await eventually(within: .seconds(30)) { a.saw(.failed) })
        #expect(!a.saw(.connected))
        #expect(a.transport.selectedPair == nil)
        let reason = try #require(a.transport.failureReason)
        #expect(reason.contains("checks failed"))
        #expect(throws: DatagramTransportError.notConnected) { try a.transport.send([1]) }
        print("wrong password: \(reason)\n\(a.transport.trace)")
        a.transport.close(); b.transport.close()
        for t in tasks { await t.value }
    }

    @Test func peerThatGoesAwayIsDetectedByConsentFreshness() async throws {
        var quickFail = Self.impatient
        quickFail.consentFailureGrace = .milliseconds(500)
        let a = try ICEPeer(.controlling, quickFail), b = try ICEPeer(.controlled, Self.impatient)
        let tasks = try wire(a, b)
        #expect(await eventually { a.transport.selectedPair != nil && [.connected, .completed].contains(a.transport.transportState) })
        b.transport.close() // its socket closes: consent checks from `a` go unanswered (RFC 7675)
        #expect(await eventually(within: .seconds(60)) { a.saw(.disconnected) })
        // With a 500 ms grace the state may already have moved on to failed when a loaded machine
        // gets here: the order of the states seen is what proves the path (checked below).
        #expect([.disconnected, .failed].contains(a.transport.transportState))
        #expect(await eventually(within: .seconds(60)) { a.saw(.failed) })
        let states = a.states
        print("after peer close: \(states.map(\.rawValue)) reason=\(a.transport.failureReason ?? "-")\n\(a.transport.trace)")
        let disconnectedAt = try #require(states.firstIndex(of: .disconnected))
        let failedAt = try #require(states.lastIndex(of: .failed))
        #expect(disconnectedAt < failedAt)
        #expect(a.transport.failureReason?.contains("consent") == true)
        a.transport.close()
        for t in tasks { await t.value }
    }

    @Test func aSilentPairIsDisconnectedBeforeConsentExpiresAndConnectedAgainWhenPacketsReturn() async throws {
        let a = try ICEPeer(.controlling), b = try ICEPeer(.controlled)
        let tasks = try wire(a, b)
        // Silence counts only once the peer has answered a round-trip probe.
        #expect(await eventually {
            [.connected, .completed].contains(a.transport.transportState) && (a.transport.selectedPair?.responsesReceived ?? 0) > 0
        })
        let stalled = ContinuousClock.now
        _ = b.transport.agent.loop.post { Thread.sleep(forTimeInterval: 5) }  // b reads nothing for 5 s
        #expect(await eventually(within: .seconds(9)) { a.saw(.disconnected) }, "before libnice's 10 s consent expiry")
        print("silence reported after \(ContinuousClock.now - stalled)")
        #expect(await eventually(within: .seconds(20)) {
            [.connected, .completed].contains(a.transport.transportState)
        })
        #expect(!a.saw(.failed))
        #expect(a.transport.trace.description.contains("nothing received for"))
        a.transport.close(); b.transport.close()
        for t in tasks { await t.value }
    }
}

@Suite struct ICERestartTests {
    @Test func restartGivesNewCredentialsAndDataKeepsFlowing() async throws {
        let a = try ICEPeer(.controlling), b = try ICEPeer(.controlled)
        let tasks = try wire(a, b)
        #expect(await eventually { a.transport.selectedPair != nil && b.transport.selectedPair != nil })
        let oldA = a.transport.localCredentials, oldB = b.transport.localCredentials
        // Signaling done by hand for the restart (offer/answer with new ufrag/pwd).
        a.forwarding.store(false, ordering: .relaxed); b.forwarding.store(false, ordering: .relaxed)
        let newA = try a.transport.restart()
        let newB = try b.transport.restart()
        #expect(newA != oldA && newB != oldB)
        #expect(a.transport.localCredentials == newA)
        // The old pair still carries data while the new checks run.
        try a.transport.send([7])
        try b.transport.setRemoteCredentials(newA)
        try a.transport.setRemoteCredentials(newB)
        for c in a.transport.localCandidates { try b.transport.addRemoteCandidate(c.candidateString) }
        for c in b.transport.localCandidates { try a.transport.addRemoteCandidate(c.candidateString) }
        try a.transport.addRemoteEndOfCandidates(); try b.transport.addRemoteEndOfCandidates()
        #expect(await eventually { a.transport.trace.entries.contains { if case .restarted = $0.event { true } else { false } } })
        #expect(await eventually { a.transport.transportState == .completed || a.transport.transportState == .connected })
        try a.transport.send([8]); try b.transport.send([9])
        #expect(await eventually { b.received.withLock { $0.contains([8]) } && a.received.withLock { $0.contains([9]) } })
        #expect(b.received.withLock { $0.contains([7]) })
        #expect(!a.saw(.failed) && !a.saw(.disconnected))
        print("restart trace:\n\(a.transport.trace)")
        a.transport.close(); b.transport.close()
        for t in tasks { await t.value }
    }
}
