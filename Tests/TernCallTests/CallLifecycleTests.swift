import Testing
import TernCall
import TernSignaling
import TernCore

/// Every lifecycle path between two (or three) `CallClient` cores wired through
/// `CallRelay`, which plays the signaling server. Each test asserts the exact
/// sequence of states each side's application sees.
@Suite("Call lifecycle scenarios")
struct CallLifecycleTests {
    private let established = ["RINGING", "CONNECTING", "IN_PROGRESS", "status:connected"]

    @Test("accept → CONNECTING → IN_PROGRESS → remote hang-up; caller offers, both close the peer")
    func acceptedCallEndsWithRemoteHangUp() throws {
        let relay = CallRelay.pair()
        let data = [AttachedData(dataName: "txCode", dataValue: "TX-B"), AttachedData(dataName: "queue", dataValue: "kyc"),
                    AttachedData(dataName: "queue", dataValue: "second")]
        try relay.call("alice", to: "bob", attachedData: data, txCode: "TX-A")
        #expect(relay.states["alice"] == ["RINGING"])
        #expect(relay.states["bob"] == ["RINGING"])
        let incoming = relay.outputs["bob"]?.compactMap { if case .incomingCall(let invite, let tx) = $0 { (invite, tx) } else { nil } }
        #expect(incoming?.first?.0.from == "alice")
        #expect(incoming?.first?.0.attachedData == data, "attached data arrives in order, repeats kept")
        #expect(incoming?.first?.1 == "TX-B")

        try relay.on("bob") { try $0.accept(media: .audioVideo, now: relay.now) }
        #expect(relay.states["alice"] == ["RINGING", "CONNECTING"])
        #expect(relay.actions("alice") == [.createOffer(callId: "c1", media: .audioVideo)])
        #expect(relay.actions("bob") == [.awaitOffer(callId: "c1", media: .audioVideo)])

        relay.connect("alice", "bob")
        #expect(relay.states["alice"] == established)
        #expect(relay.states["bob"] == established)

        try relay.on("bob") { try $0.hangUp(now: relay.now) }
        #expect(relay.states["alice"] == established + ["ENDED(remoteHangUp)"])
        #expect(relay.states["bob"] == established + ["ENDED(localHangUp)"])
        #expect(relay.actions("alice").last == .closePeer(callId: "c1"))
        #expect(relay.actions("bob").last == .closePeer(callId: "c1"))
        #expect(relay.clients["alice"]?.isOnCall == false)

        let aliceChanges = relay.outputs["alice"]?.compactMap { if case .stateChanged(let c) = $0 { c } else { nil } }
        #expect(aliceChanges?.allSatisfy { $0.callId == "c1" && $0.txCode == "TX-A" } == true)
        let bobChanges = relay.outputs["bob"]?.compactMap { if case .stateChanged(let c) = $0 { c } else { nil } }
        #expect(bobChanges?.allSatisfy { $0.txCode == "TX-B" } == true)
    }

    @Test("the callee declines: both sides end rejected")
    func declined() throws {
        let relay = CallRelay.pair()
        try relay.call("alice", to: "bob")
        try relay.on("bob") { try $0.reject(reason: .declined, now: relay.now) }
        #expect(relay.states["alice"] == ["RINGING", "ENDED(rejected)"])
        #expect(relay.states["bob"] == ["RINGING", "ENDED(rejected)"])
        #expect(relay.actions("alice").isEmpty, "no peer was created")
    }

    @Test("a second invite while on a call is answered busy by the core itself")
    func busyWhileOnCall() throws {
        let relay = CallRelay(devices: ["alice": "alice", "bob": "bob", "carol": "carol"])
        try relay.establish()
        try relay.call("carol", to: "bob", callId: "c2")
        #expect(relay.states["carol"] == ["ENDED(busy)"])
        #expect(relay.states["bob"] == established, "bob's call goes on untouched")
        #expect(relay.sent("bob").last == .reject(callId: "c2", reason: .busy))
        #expect(relay.clients["bob"]?.isOnCall == true)
        #expect(relay.clients["bob"]?.currentCall?.callId == "c1")
    }

    @Test("the caller cancels while it rings")
    func cancelledWhileRinging() throws {
        let relay = CallRelay.pair()
        try relay.call("alice", to: "bob")
        try relay.on("alice") { try $0.cancel(now: relay.now) }
        #expect(relay.states["alice"] == ["RINGING", "ENDED(cancelled)"])
        #expect(relay.states["bob"] == ["RINGING", "ENDED(cancelled)"])
    }

    @Test("no answer: the server's timeout ends the call on both sides")
    func noAnswerServerTimeout() throws {
        let relay = CallRelay.pair()
        try relay.call("alice", to: "bob", timeout: .seconds(30))
        relay.advance(to: .zero + .milliseconds(29_999))
        #expect(relay.state("alice") == .ringing)
        relay.advance(to: .zero + .seconds(30))
        #expect(relay.states["alice"] == ["RINGING", "ENDED(noAnswer)"])
        #expect(relay.states["bob"] == ["RINGING", "ENDED(noAnswer)"])
    }

    @Test("no answer and no server timeout: the caller's own ring timer ends it after the grace and sends cancel")
    func noAnswerLocalTimer() throws {
        let relay = CallRelay.pair()
        try relay.call("alice", to: "bob", timeout: .seconds(10))
        relay.calls["c1"]?.deadline = .distantFuture // a server that never sends timeout
        relay.advance(to: .zero + .seconds(10))
        #expect(relay.state("alice") == .ringing, "the server's timeout gets the ring time plus a grace")
        relay.advance(to: .zero + .seconds(11))
        #expect(relay.states["alice"] == ["RINGING", "ENDED(noAnswer)"])
        #expect(relay.sent("alice").last == .cancel(callId: "c1"))
        #expect(relay.states["bob"] == ["RINGING", "ENDED(cancelled)"])
    }

    @Test("the callee ends a ringing call itself after the ring time plus grace if the server stays silent")
    func calleeRingTimer() throws {
        let relay = CallRelay.pair()
        try relay.call("alice", to: "bob", timeout: .seconds(10))
        relay.offline.insert("alice") // the caller's messages no longer reach the server
        relay.calls["c1"]?.deadline = .distantFuture
        relay.advance(to: .zero + .seconds(11))
        #expect(relay.states["bob"] == ["RINGING"])
        relay.advance(to: .zero + .seconds(12))
        #expect(relay.states["bob"] == ["RINGING", "ENDED(noAnswer)"])
    }

    @Test("local hang-up of a call in progress")
    func localHangUp() throws {
        let relay = CallRelay.pair()
        try relay.establish()
        try relay.on("alice") { try $0.hangUp(now: relay.now) }
        #expect(relay.states["alice"] == established + ["ENDED(localHangUp)"])
        #expect(relay.states["bob"] == established + ["ENDED(remoteHangUp)"])
    }

    @Test("several devices: the first accept wins, the other device ends answeredElsewhere")
    func answeredElsewhere() throws {
        let relay = CallRelay(devices: ["alice": "alice", "phone": "bob", "laptop": "bob"])
        try relay.call("alice", to: "bob")
        #expect(relay.states["phone"] == ["RINGING"])
        #expect(relay.states["laptop"] == ["RINGING"])
        try relay.on("laptop") { try $0.accept(media: .audioVideo, now: relay.now) }
        #expect(relay.states["phone"] == ["RINGING", "ENDED(answeredElsewhere)"])
        #expect(relay.states["laptop"] == ["RINGING", "CONNECTING"])
        #expect(relay.states["alice"] == ["RINGING", "CONNECTING"])
        #expect(relay.actions("phone").isEmpty)
    }

    @Test("several devices, reject policy any: one reject ends the others with rejectedElsewhere")
    func rejectedElsewhere() throws {
        let relay = CallRelay(devices: ["alice": "alice", "phone": "bob", "laptop": "bob"])
        relay.rejectPolicy = .any
        try relay.call("alice", to: "bob")
        try relay.on("phone") { try $0.reject(reason: .declined, now: relay.now) }
        #expect(relay.states["phone"] == ["RINGING", "ENDED(rejected)"])
        #expect(relay.states["laptop"] == ["RINGING", "ENDED(rejectedElsewhere)"])
        #expect(relay.states["alice"] == ["RINGING", "ENDED(rejected)"])
    }

    @Test("signaling lost mid-call: the call stays IN_PROGRESS, the reconnected client resumes it, the hang-up reaches the peer")
    func signalingLostThenResumes() throws {
        let relay = CallRelay.pair()
        try relay.establish()
        relay.dropConnection("alice")
        #expect(relay.states["alice"] == established + ["signaling:reconnecting"])
        #expect(relay.states["bob"] == established)
        #expect(relay.clients["alice"]?.state == .paused)

        relay.advance(by: .milliseconds(500))
        #expect(relay.clients["alice"]?.state == .resuming)
        #expect(relay.actions("alice").last == .connectSignaling)
        relay.reconnect("alice")
        #expect(relay.clients["alice"]?.state == .running)
        #expect(relay.sent("alice").last == .resume(callIds: ["c1"]))
        #expect(relay.states["alice"] == established + ["signaling:reconnecting", "signaling:connected"])

        try relay.on("alice") { try $0.hangUp(now: relay.now) }
        #expect(relay.states["alice"] == established + ["signaling:reconnecting", "signaling:connected", "ENDED(localHangUp)"])
        #expect(relay.states["bob"] == established + ["ENDED(remoteHangUp)"])
    }

    @Test("the peer hangs up while signaling is away: the resume gets callGone and the call ends signalingLost")
    func peerHangsUpWhileAway() throws {
        let relay = CallRelay.pair()
        try relay.establish()
        relay.dropConnection("alice")
        try relay.on("bob") { try $0.hangUp(now: relay.now) }
        #expect(relay.states["alice"] == established + ["signaling:reconnecting"])
        relay.reconnect("alice")
        #expect(relay.states["alice"] == established + ["signaling:reconnecting", "signaling:failed", "ENDED(signalingLost)"])
    }

    @Test("the server's window passed before the reconnect: callGone ends the call signalingLost")
    func resumeGetsCallGone() throws {
        let relay = CallRelay.pair()
        try relay.establish()
        relay.dropConnection("alice")
        relay.endHeldCalls("alice")
        #expect(relay.states["bob"] == established + ["ENDED(remoteHangUp)"])
        relay.reconnect("alice")
        #expect(relay.states["alice"] == established + ["signaling:reconnecting", "signaling:failed", "ENDED(signalingLost)"])
        #expect(relay.clients["alice"]?.state == .running)
    }

    @Test("no reconnect within signalingResumeTimeout: the call ends signalingLost while the client keeps trying")
    func resumeTimesOut() throws {
        var configuration = CallConfiguration()
        configuration.maxReconnectAttempts = 100
        let relay = CallRelay.pair(configuration: configuration)
        try relay.establish()
        relay.dropConnection("alice")
        relay.advance(by: .seconds(29))
        #expect(relay.state("alice") == .inProgress)
        relay.advance(by: .seconds(1))
        #expect(relay.states["alice"] == established + ["signaling:reconnecting", "signaling:failed", "ENDED(signalingLost)"])
    }

    @Test("reconnect attempts exhausted: the held call ends signalingLost and the client fails")
    func reconnectGivesUp() throws {
        var configuration = CallConfiguration()
        configuration.maxReconnectAttempts = 2
        configuration.reconnectBackoff = [.milliseconds(100)]
        let relay = CallRelay.pair(configuration: configuration)
        try relay.establish()
        relay.dropConnection("alice")
        for _ in 0..<3 {
            relay.advance(by: .milliseconds(100))
            _ = try relay.on("alice") { $0.signalingConnectFailed(now: relay.now) }
        }
        #expect(relay.clients["alice"]?.state == .failed)
        #expect(relay.states["alice"] == established + ["signaling:reconnecting", "signaling:failed", "ENDED(signalingLost)"])
    }

    @Test("the caller's signaling drops while the callee rings: the accept waits for the resume, the call connects")
    func callerResumesRingingCall() throws {
        let relay = CallRelay.pair()
        try relay.call("alice", to: "bob")
        relay.dropConnection("alice")
        #expect(relay.states["alice"] == ["RINGING", "signaling:reconnecting"])
        try relay.on("bob") { try $0.accept(media: .audioVideo, now: relay.now) }
        #expect(relay.states["alice"] == ["RINGING", "signaling:reconnecting"])
        relay.reconnect("alice")
        #expect(relay.states["alice"] == ["RINGING", "signaling:reconnecting", "signaling:connected", "CONNECTING"])
    }

    @Test("the callee's signaling drops while it rings: its call ends signalingLost, the caller gets reject unavailable")
    func ringingCalleeDrops() throws {
        let relay = CallRelay.pair()
        try relay.call("alice", to: "bob")
        relay.dropConnection("bob")
        #expect(relay.states["bob"] == ["RINGING", "ENDED(signalingLost)"])
        #expect(relay.states["alice"] == ["RINGING", "ENDED(rejected)"])
    }

    @Test("ICE disconnected → reconnecting (the caller restarts ICE) → recovered")
    func iceRestartRecovers() throws {
        let relay = CallRelay.pair()
        try relay.establish()
        relay.transport("alice", .disconnected)
        relay.transport("bob", .disconnected)
        #expect(relay.actions("alice").last == .restartICE(callId: "c1"))
        #expect(!relay.actions("bob").contains(.restartICE(callId: "c1")), "only the offerer restarts")
        relay.advance(by: .seconds(5))
        #expect(relay.actions("alice").filter { $0 == .restartICE(callId: "c1") }.count == 2)
        relay.connect("alice", "bob")
        let expected = established + ["status:reconnecting", "status:connected"]
        #expect(relay.states["alice"] == expected)
        #expect(relay.states["bob"] == expected)
        #expect(relay.clients["alice"]?.nextTimeout == nil, "no timer left once recovered")
    }

    @Test("an app-requested ICE restart: either side, only while IN_PROGRESS, no state change")
    func appRequestedICERestart() throws {
        let relay = CallRelay.pair()
        try relay.call("alice", to: "bob")
        #expect(throws: CallError.callNotInProgress(operation: "restart ICE", state: .ringing)) {
            try relay.on("alice") { try $0.restartICE(now: relay.now) }
        }
        try relay.on("bob") { try $0.accept(media: .audioOnly, now: relay.now) }
        relay.connect("alice", "bob")
        #expect(try relay.on("bob") { try $0.restartICE(now: relay.now) } == [.action(.restartICE(callId: "c1"))])
        #expect(try relay.on("alice") { try $0.restartICE(now: relay.now) } == [.action(.restartICE(callId: "c1"))])
        #expect(relay.states["alice"] == established && relay.states["bob"] == established)
    }

    @Test("ICE restarts exhausted → failed → ENDED(disconnected); the peer is told with hangup")
    func iceRestartsExhausted() throws {
        let relay = CallRelay.pair()
        try relay.establish()
        relay.transport("alice", .failed)
        relay.transport("bob", .disconnected)
        relay.advance(by: .seconds(14))
        #expect(relay.state("alice") == .inProgress)
        relay.advance(by: .seconds(1))
        #expect(relay.actions("alice").filter { $0 == .restartICE(callId: "c1") }.count == 3)
        #expect(relay.states["alice"] == established + ["status:reconnecting", "status:failed", "ENDED(disconnected)"])
        #expect(relay.states["bob"] == established + ["status:reconnecting", "ENDED(remoteHangUp)"])
    }

    @Test("the callee alone ends a lost transport after reconnectTimeout")
    func calleeReconnectTimeout() throws {
        let relay = CallRelay.pair()
        try relay.establish()
        relay.transport("bob", .disconnected)
        relay.advance(by: .seconds(20))
        #expect(relay.states["bob"] == established + ["status:reconnecting", "status:failed", "ENDED(disconnected)"])
        #expect(relay.states["alice"] == established + ["ENDED(remoteHangUp)"])
    }

    @Test("CONNECTING longer than connectTimeout → connectFailed")
    func connectTimeout() throws {
        let relay = CallRelay.pair()
        try relay.call("alice", to: "bob")
        try relay.on("bob") { try $0.accept(media: .audioOnly, now: relay.now) }
        relay.advance(by: .milliseconds(19_999))
        #expect(relay.state("alice") == .connecting)
        relay.advance(by: .milliseconds(1))
        #expect(relay.states["alice"] == ["RINGING", "CONNECTING", "ENDED(connectFailed)"])
        #expect(relay.states["bob"] == ["RINGING", "CONNECTING", "ENDED(remoteHangUp)"])
        #expect(relay.actions("alice").last == .closePeer(callId: "c1"))
    }

    @Test("a transport that fails while connecting ends the call connectFailed at once")
    func transportFailsWhileConnecting() throws {
        let relay = CallRelay.pair()
        try relay.call("alice", to: "bob")
        try relay.on("bob") { try $0.accept(media: .audioOnly, now: relay.now) }
        relay.transport("bob", .failed)
        #expect(relay.states["bob"] == ["RINGING", "CONNECTING", "ENDED(connectFailed)"])
        #expect(relay.states["alice"] == ["RINGING", "CONNECTING", "ENDED(remoteHangUp)"])
    }

    @Test("accept overtaking ringing takes the caller straight from NO_CALL to CONNECTING")
    func acceptWithoutRinging() throws {
        var alice = CallClient()
        _ = try alice.start(now: .zero)
        _ = alice.signalingConnected(now: .zero)
        _ = try alice.call(callId: "c9", to: "bob", media: .audioOnly, txCode: "t", now: .zero)
        #expect(alice.currentCall?.state == .noCall)
        #expect(alice.isOnCall)
        let out = alice.receive(.accept(callId: "c9"), now: .zero)
        #expect(out == [.stateChanged(CallStateChange(callId: "c9", txCode: "t", state: .connecting)),
                        .action(.createOffer(callId: "c9", media: .audioOnly))])
        #expect(alice.receive(.hangup(callId: "other"), now: .zero).isEmpty, "messages of other calls are ignored")
    }
}

@Suite("Call lifecycle edge cases")
struct CallLifecycleEdgeTests {
    private func running() throws -> CallClient {
        var client = CallClient()
        _ = try client.start(now: .zero)
        _ = client.signalingConnected(now: .zero)
        return client
    }

    @Test("a repeated invite for the ringing call is ignored, not answered busy")
    func duplicateInvite() throws {
        var bob = try running()
        let invite = Invite(callId: "c1", from: "alice", to: "bob", media: .audioOnly)
        #expect(bob.receive(.invite(invite), now: .zero).count == 3) // incomingCall, ringing, RINGING
        #expect(bob.receive(.invite(invite), now: .zero).isEmpty)
    }

    @Test("an invite may reuse the id of an ended call")
    func reuseEndedCallId() throws {
        var bob = try running()
        let invite = Invite(callId: "c1", from: "alice", to: "bob", media: .audioOnly)
        _ = bob.receive(.invite(invite), now: .zero)
        _ = bob.receive(.cancel(callId: "c1"), now: .zero)
        #expect(bob.receive(.invite(invite), now: .zero).contains(.send(.ringing(callId: "c1"))))
        #expect(bob.currentCall?.state == .ringing)
    }

    @Test("a cancel that crosses the accept ends the callee cancelled, like the caller (the server refused the accept)")
    func cancelCrossesAccept() throws {
        var bob = try running()
        _ = bob.receive(.invite(Invite(callId: "c1", from: "alice", to: "bob", media: .audioOnly)), now: .zero)
        _ = try bob.accept(media: .audioOnly, txCode: "T", now: .zero)
        #expect(bob.receive(.cancel(callId: "c1"), now: .zero) == [
            .stateChanged(CallStateChange(callId: "c1", txCode: "T", state: .ended, reason: .cancelled)),
            .action(.closePeer(callId: "c1")),
        ])
    }

    @Test("operations on a call in the wrong state throw typed errors and send nothing")
    func wrongStateErrors() throws {
        var alice = try running()
        _ = try alice.call(callId: "c1", to: "bob", media: .audioOnly, txCode: "t", now: .zero)
        #expect(throws: CallError.invalidCallState(operation: "accept", state: .noCall)) {
            try alice.accept(media: .audioOnly, now: .zero)
        }
        #expect(throws: CallError.invalidCallState(operation: "reject", state: .noCall)) {
            try alice.reject(now: .zero)
        }
        #expect(throws: CallError.callNotInProgress(operation: "hold", state: .noCall)) {
            try alice.setHold(true, now: .zero)
        }
        _ = try alice.hangUp(now: .zero)
        #expect(alice.currentCall?.endReason == .cancelled)
        #expect(throws: CallError.noSuchCall(callId: nil)) { try alice.hangUp(now: .zero) }
    }
}
