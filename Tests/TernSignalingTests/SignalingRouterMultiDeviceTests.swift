import Testing
import TernSignaling

@Suite("Router: several devices of one user")
struct SignalingRouterMultiDeviceTests {
    /// alice on 1; bob on 2, 3 and 4.
    static func setUp(policy: RejectPolicy? = nil) -> (RouterHarness, Invite) {
        var h = RouterHarness()
        h.register(1, "alice")
        for n: UInt64 in 2...4 { h.register(n, "bob") }
        let invite = Invite(callId: "c1", to: "bob", timeoutMs: 10_000, rejectPolicy: policy)
        return (h, invite)
    }

    static func delivered(_ invite: Invite) -> Invite {
        var out = invite
        out.from = "alice"
        out.rejectPolicy = invite.rejectPolicy ?? .all
        return out
    }

    @Test("an invite rings every device; only the first ringing reaches the caller")
    func ringsAll() {
        var (h, invite) = Self.setUp()
        let expected = Self.delivered(invite)
        #expect(h.send(1, .invite(invite)) == [send(2, .invite(expected)), send(3, .invite(expected)), send(4, .invite(expected))])
        #expect(h.send(3, .ringing(callId: "c1")) == [send(1, .ringing(callId: "c1"))])
        #expect(h.send(2, .ringing(callId: "c1")) == [])
    }

    @Test("the first accept wins; the other devices get answeredElsewhere; a late accept is refused")
    func firstAcceptWins() {
        var (h, invite) = Self.setUp()
        _ = h.send(1, .invite(invite))
        #expect(h.send(3, .accept(callId: "c1")) == [
            send(1, .accept(callId: "c1")),
            send(2, .answeredElsewhere(callId: "c1")),
            send(4, .answeredElsewhere(callId: "c1")),
        ])
        #expect(errorCodes(h.send(2, .accept(callId: "c1")), to: 2) == [.notInCall])
        // Media flows between the caller and the device that answered only.
        let offer = SignalingMessage.description(callId: "c1", description: .init(type: .offer, sdp: "v=0"))
        #expect(h.send(1, offer) == [send(3, offer)])
        #expect(errorCodes(h.send(4, offer), to: 4) == [.notInCall])
    }

    @Test("policy all: the call fails only when every device rejected; declined outranks busy")
    func policyAll() {
        var (h, invite) = Self.setUp(policy: .all)
        _ = h.send(1, .invite(invite))
        #expect(h.send(2, .reject(callId: "c1", reason: .busy)) == [])
        #expect(h.send(3, .reject(callId: "c1", reason: .declined)) == [])
        #expect(h.send(4, .reject(callId: "c1", reason: .busy)) == [send(1, .reject(callId: "c1", reason: .declined))])
        #expect(h.router.callCount == 0)
    }

    @Test("policy all is the default and a remaining device can still accept")
    func policyAllThenAccept() {
        var (h, invite) = Self.setUp()
        _ = h.send(1, .invite(invite))
        #expect(h.send(2, .reject(callId: "c1", reason: .busy)) == [])
        #expect(h.send(4, .accept(callId: "c1")) == [send(1, .accept(callId: "c1")), send(3, .answeredElsewhere(callId: "c1"))])
    }

    @Test("policy any: the first reject ends the call and the other devices get rejectedElsewhere")
    func policyAny() {
        var (h, invite) = Self.setUp(policy: .any)
        _ = h.send(1, .invite(invite))
        #expect(h.send(3, .reject(callId: "c1", reason: .declined)) == [
            send(1, .reject(callId: "c1", reason: .declined)),
            send(2, .rejectedElsewhere(callId: "c1")),
            send(4, .rejectedElsewhere(callId: "c1")),
        ])
    }

    @Test("cancel and timeout reach every device still ringing, not those that rejected")
    func cancelAndTimeout() {
        var (h, invite) = Self.setUp()
        _ = h.send(1, .invite(invite))
        _ = h.send(2, .reject(callId: "c1", reason: .busy))
        #expect(h.send(1, .cancel(callId: "c1")) == [send(3, .cancel(callId: "c1")), send(4, .cancel(callId: "c1"))])

        (h, invite) = Self.setUp()
        _ = h.send(1, .invite(invite))
        _ = h.send(4, .reject(callId: "c1", reason: .busy))
        #expect(h.advance(ms: 10_000) == [
            send(1, .timeout(callId: "c1")), send(2, .timeout(callId: "c1")), send(3, .timeout(callId: "c1")),
        ])
    }

    @Test("a caller's other device is rung when calling its own user, the calling connection is not")
    func selfCall() {
        var h = RouterHarness()
        h.register(1, "alice")
        h.register(2, "alice")
        var expected = Invite(callId: "c9", to: "alice")
        expected.from = "alice"
        expected.timeoutMs = 30_000
        expected.rejectPolicy = .all
        #expect(h.send(1, .invite(Invite(callId: "c9", to: "alice"))) == [send(2, .invite(expected))])
    }
}
