import Testing
import TernCall
import TernSignaling
import TernCore

/// Video added, changed, denied, unanswered and removed mid-call.
@Suite("video escalation")
struct VideoEscalationTests {
    private func updates(_ relay: CallRelay, _ device: String) -> [VideoMode] {
        (relay.outputs[device] ?? []).compactMap {
            if case .videoChannelsUpdated(_, _, let direction) = $0 { direction } else { nil }
        }
    }

    private func answers(_ relay: CallRelay, _ device: String) -> [VideoRequestResult] {
        (relay.outputs[device] ?? []).compactMap {
            if case .videoRequestAnswered(_, _, let result) = $0 { result } else { nil }
        }
    }

    private func requests(_ relay: CallRelay, _ device: String) -> [VideoMode] {
        (relay.outputs[device] ?? []).compactMap {
            if case .videoRequested(_, _, let mode) = $0 { mode } else { nil }
        }
    }

    @Test("audio call → bidirectional video added → removed")
    func addBidirectionalThenRemove() throws {
        let relay = CallRelay.pair()
        try relay.establish(media: .audioOnly)
        #expect(relay.clients["alice"]?.currentCall?.videoMode == .disabled)

        try relay.on("alice") { try $0.setVideoMode(.sendReceive, now: relay.now) }
        #expect(requests(relay, "bob") == [.sendReceive])
        try relay.on("bob") { try $0.acceptVideo(mode: .sendReceive, now: relay.now) }
        #expect(answers(relay, "alice") == [.accepted(.sendReceive)])
        #expect(relay.actions("alice").last == .renegotiate(callId: "c1", video: .sendReceive))
        #expect(relay.actions("bob").last == .prepareVideo(callId: "c1", video: .sendReceive))
        #expect(updates(relay, "alice").isEmpty, "nothing changes before the renegotiation is done")
        relay.renegotiated("alice", "bob")
        #expect(updates(relay, "alice") == [.sendReceive])
        #expect(updates(relay, "bob") == [.sendReceive])

        try relay.on("bob") { try $0.setVideoMode(.disabled, now: relay.now) }
        #expect(requests(relay, "alice").isEmpty, "removal needs no consent")
        #expect(answers(relay, "bob") == [.accepted(.disabled)])
        #expect(relay.actions("bob").last == .renegotiate(callId: "c1", video: .disabled))
        relay.renegotiated("alice", "bob")
        #expect(updates(relay, "alice") == [.sendReceive, .disabled])
        #expect(updates(relay, "bob") == [.sendReceive, .disabled])
        #expect(relay.clients["bob"]?.currentCall?.videoMode == .disabled)
    }

    @Test("unidirectional: the requester only sends, the answerer only receives")
    func addUnidirectional() throws {
        let relay = CallRelay.pair()
        try relay.establish(media: .audioOnly)
        try relay.on("alice") { try $0.setVideoMode(.sendOnly, now: relay.now) }
        #expect(requests(relay, "bob") == [.receiveOnly], "seen from bob's side")
        try relay.on("bob") { try $0.acceptVideo(mode: .receiveOnly, now: relay.now) }
        relay.renegotiated("alice", "bob")
        #expect(updates(relay, "alice") == [.sendOnly])
        #expect(updates(relay, "bob") == [.receiveOnly])
    }

    @Test("the answerer picks another direction than the one asked")
    func answererChoosesDirection() throws {
        let relay = CallRelay.pair()
        try relay.establish(media: .audioOnly)
        try relay.on("alice") { try $0.setVideoMode(.sendReceive, now: relay.now) }
        try relay.on("bob") { try $0.acceptVideo(mode: .receiveOnly, now: relay.now) }
        #expect(answers(relay, "alice") == [.accepted(.sendOnly)])
        relay.renegotiated("alice", "bob")
        #expect(updates(relay, "alice") == [.sendOnly])
        #expect(updates(relay, "bob") == [.receiveOnly])
    }

    @Test("denied: no renegotiation, the mode stays")
    func denied() throws {
        let relay = CallRelay.pair()
        try relay.establish(media: .audioOnly)
        try relay.on("alice") { try $0.setVideoMode(.sendReceive, now: relay.now) }
        try relay.on("bob") { try $0.denyVideo(now: relay.now) }
        #expect(answers(relay, "alice") == [.denied])
        relay.renegotiated("alice", "bob")
        #expect(updates(relay, "alice").isEmpty)
        #expect(!relay.actions("alice").contains { if case .renegotiate = $0 { true } else { false } })
        #expect(throws: CallError.noVideoRequest) { try relay.on("bob") { try $0.denyVideo(now: relay.now) } }
    }

    @Test("no answer within the bound counts as declined (timed out) on both sides")
    func noAnswer() throws {
        let relay = CallRelay.pair()
        try relay.establish(media: .audioOnly)
        try relay.on("alice") { try $0.setVideoMode(.sendReceive, now: relay.now) }
        #expect(throws: CallError.videoRequestPending(requestId: "c1")) {
            try relay.on("alice") { try $0.setVideoMode(.sendOnly, now: relay.now) }
        }
        relay.advance(by: .seconds(15))
        #expect(answers(relay, "alice") == [.timedOut])
        #expect(throws: CallError.noVideoRequest) {
            try relay.on("bob") { try $0.acceptVideo(mode: .sendReceive, now: relay.now) }
        }
        #expect(relay.state("alice") == .inProgress)
        // A new request works again.
        try relay.on("alice") { try $0.setVideoMode(.sendReceive, now: relay.now) }
        #expect(requests(relay, "bob") == [.sendReceive, .sendReceive])
    }

    @Test("the requester's own timer declines when the answer is lost")
    func answerLost() throws {
        var alice = CallClient()
        _ = try alice.start(now: .zero)
        _ = alice.signalingConnected(now: .zero)
        _ = try alice.call(callId: "c1", to: "bob", media: .audioOnly, txCode: "t", now: .zero)
        _ = alice.receive(.accept(callId: "c1"), now: .zero)
        _ = alice.transportChanged(callId: "c1", .connected, now: .zero)
        _ = try alice.setVideoMode(.sendReceive, now: .zero)
        #expect(alice.nextTimeout == .zero + .seconds(15))
        #expect(alice.handleTimeout(now: .zero + .seconds(15)) == [
            .videoRequestAnswered(callId: "c1", txCode: "t", result: .timedOut),
        ])
    }

    @Test("requests crossing: the caller's request wins")
    func glare() throws {
        let relay = CallRelay.pair()
        try relay.establish(media: .audioOnly)
        // Deliver both requests "at once": bob's request is produced before alice's arrives.
        var bob = try #require(relay.clients["bob"])
        let bobOut = try bob.setVideoMode(.sendReceive, now: relay.now)
        relay.clients["bob"] = bob
        try relay.on("alice") { try $0.setVideoMode(.sendOnly, now: relay.now) }
        relay.process("bob", bobOut)
        #expect(answers(relay, "bob") == [.denied])
        #expect(requests(relay, "bob") == [.receiveOnly])
        try relay.on("bob") { try $0.acceptVideo(mode: .receiveOnly, now: relay.now) }
        #expect(answers(relay, "alice") == [.accepted(.sendOnly)])
    }
}
