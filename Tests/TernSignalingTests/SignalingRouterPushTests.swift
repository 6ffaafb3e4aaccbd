import Testing
import TernCore
import TernSignaling

@Suite("Router: invitations delivered by push")
struct SignalingRouterPushTests {
    @Test("push on: an invitee with no connection gets a push, not unavailable; registering in time rings it, and ringing reaches the caller")
    func pendingUntilRegister() {
        var h = RouterHarness(push: .whenOffline)
        h.register(1, "alice")
        let out = h.send(1, .invite(Invite(callId: "c1", to: "bob", timeoutMs: 20000)))
        #expect(messages(out, to: 1) == [])
        #expect(pushes(out).map(\.1) == ["bob"])
        #expect(pushes(out).first?.0 == 1 && pushes(out).first?.2 == 20000)
        _ = h.advance(ms: 3000)
        let registered = h.register(2, "bob")
        var delivered = Invite(callId: "c1", from: "alice", to: "bob", timeoutMs: 20000)
        delivered.rejectPolicy = .all
        #expect(messages(registered, to: 2) == [.registered(user: "bob"), .invite(delivered)])
        #expect(h.send(2, .ringing(callId: "c1")) == [send(1, .ringing(callId: "c1"))])
        #expect(h.send(2, .accept(callId: "c1")) == [send(1, .accept(callId: "c1"))])
    }

    @Test("push off (the default): an invitee with no connection is unavailable at once, and nothing is pushed")
    func offIsTodaysBehaviour() {
        var h = RouterHarness()
        h.register(1, "alice")
        let out = h.send(1, .invite(Invite(callId: "c1", to: "bob")))
        #expect(out == [send(1, .reject(callId: "c1", reason: .unavailable))])
        #expect(pushes(out).isEmpty)
    }

    @Test("whenOffline pushes only to invitees with no connection; always pushes to every invitee")
    func policies() {
        var h = RouterHarness(push: .whenOffline)
        h.register(1, "alice")
        h.register(2, "bob")
        #expect(pushes(h.send(1, .invite(Invite(callId: "g1", to: ["bob", "carol"], mode: .group)))).map(\.1) == ["carol"])
        var always = RouterHarness(push: .always)
        always.register(1, "alice")
        always.register(2, "bob")
        let out = always.send(1, .invite(Invite(callId: "c1", to: "bob")))
        #expect(pushes(out).map(\.1) == ["bob"])
        #expect(messages(out, to: 2).count == 1)
    }

    @Test("a group invitee reached by push joins: its device registers, rings and accepts; members track it")
    func groupPush() {
        var h = RouterHarness(push: .whenOffline)
        h.register(1, "alice")
        h.register(2, "bob")
        let out = h.send(1, .invite(Invite(callId: "g1", to: ["bob", "carol"], mode: .group)))
        #expect(lastMembers(out, to: 1) == ["alice accepted", "bob inviting", "carol inviting"])
        let registered = h.register(3, "carol")
        #expect(messages(registered, to: 3).count == 2)
        #expect(lastMembers(h.send(3, .accept(callId: "g1")), to: 1) == ["alice accepted", "bob inviting", "carol accepted"])
    }

    @Test("callStatus answers ringing, answered, cancelled, timeout, rejected, ended; unknown to a user the call does not concern")
    func callStatus() {
        var h = RouterHarness(push: .whenOffline)
        h.register(1, "alice")
        h.register(9, "bob")
        func status(_ n: UInt64, _ id: String) -> CallStatusState? {
            guard case .callStatus(_, let state)? = messages(h.send(n, .callStatus(callId: id, state: nil)), to: n).first else { return nil }
            return state
        }
        _ = h.send(1, .invite(Invite(callId: "c1", to: "bob")))
        #expect(status(9, "c1") == .ringing)
        h.register(7, "mallory")
        #expect(status(7, "c1") == .unknown, "an outsider learns nothing")
        _ = h.send(1, .cancel(callId: "c1"))
        #expect(status(9, "c1") == .cancelled)
        _ = h.send(1, .invite(Invite(callId: "c2", to: "bob", timeoutMs: 1000)))
        _ = h.advance(ms: 1000)
        #expect(status(9, "c2") == .timeout)
        _ = h.send(1, .invite(Invite(callId: "c3", to: "bob")))
        _ = h.send(9, .accept(callId: "c3"))
        h.register(10, "bob")
        #expect(status(10, "c3") == .answered)
        _ = h.send(9, .hangup(callId: "c3"))
        #expect(status(10, "c3") == .ended)
        _ = h.send(1, .invite(Invite(callId: "c4", to: "bob")))
        _ = h.send(9, .reject(callId: "c4", reason: .declined))
        _ = h.send(10, .reject(callId: "c4", reason: .declined))
        #expect(status(10, "c4") == .rejected)
        #expect(status(10, "nope") == .unknown)
    }

    @Test("ended calls are remembered up to maxRememberedCalls, the oldest forgotten first")
    func rememberedBound() {
        var limits = SignalingLimits()
        limits.maxRememberedCalls = 2
        var h = RouterHarness(limits: limits, push: .whenOffline)
        h.register(1, "alice")
        h.register(2, "bob")
        for id in ["c1", "c2", "c3"] {
            _ = h.send(1, .invite(Invite(callId: id, to: "bob")))
            _ = h.send(1, .cancel(callId: id))
        }
        func status(_ id: String) -> [SignalingMessage] { messages(h.send(2, .callStatus(callId: id, state: nil)), to: 2) }
        #expect(status("c1") == [.callStatus(callId: "c1", state: .unknown)])
        #expect(status("c3") == [.callStatus(callId: "c3", state: .cancelled)])
    }
}
