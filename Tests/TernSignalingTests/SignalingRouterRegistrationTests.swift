import Testing
import TernSignaling

@Suite("Router: register")
struct SignalingRouterRegistrationTests {
    @Test("open mode accepts any token")
    func openMode() {
        var h = RouterHarness()
        #expect(h.register(1, "alice", token: "anything") == [send(1, .registered(user: "alice"))])
        #expect(h.router.user(of: c(1)) == "alice")
    }

    @Test("with tokens, register asks the driver to verify; the verdict registers or refuses, and the connection stays usable")
    func verifiedRegister() {
        var h = RouterHarness(verifiesTokens: true)
        #expect(h.register(1, "alice", token: "jwt-1") == [.verifyToken(c(1), user: "alice", token: "jwt-1")])
        #expect(h.router.user(of: c(1)) == nil, "not registered before the verdict")
        let refusal = SignalingError(code: .tokenExpired, message: "expired")
        #expect(h.verified(1, "alice", .failure(refusal)) == [send(1, .error(refusal))])
        #expect(h.router.refusals[.tokenExpired] == 1)
        #expect(h.router.user(of: c(1)) == nil)
        #expect(h.register(1, "alice", token: "jwt-2") == [.verifyToken(c(1), user: "alice", token: "jwt-2")])
        #expect(h.verified(1, "alice", .success(.user)) == [send(1, .registered(user: "alice"))])
        #expect(h.router.user(of: c(1)) == "alice")
        #expect(h.router.role(of: c(1)) == .user)
    }

    @Test("while a token is verified: other messages get notRegistered, a second register invalidState, a stale verdict nothing")
    func whileVerifying() {
        var h = RouterHarness(verifiesTokens: true)
        _ = h.register(1, "alice", token: "jwt")
        #expect(errorCodes(h.send(1, .pick(queue: "q")), to: 1) == [.notRegistered])
        #expect(errorCodes(h.register(1, "alice", token: "jwt"), to: 1) == [.invalidState])
        #expect(h.verified(1, "mallory", .success(.agent)) == [], "a verdict for another user is not this register's")
        _ = h.close(1)
        #expect(h.verified(1, "alice", .success(.user)) == [], "the connection has gone")
    }

    @Test("user ids are compared byte for byte: \"Ame\\u{301}lie\" is not \"Amélie\" (Swift strings would say it is)")
    func userIdsAreBytes() {
        var h = RouterHarness()
        let composed = "Am\u{E9}lie", decomposed = "Ame\u{301}lie"
        #expect(composed == decomposed, "canonical equivalence, the trap")
        h.register(1, composed)
        h.register(2, decomposed)
        #expect(errorCodes(h.register(1, decomposed), to: 1) == [.alreadyRegistered])
        h.register(3, "bob")
        let invite = h.send(3, .invite(Invite(callId: "c1", to: composed)))
        let rung = invite.compactMap { action -> SignalingConnectionID? in
            if case .send(let to, .invite) = action { return to }
            return nil
        }
        #expect(rung == [c(1)], "only the composed spelling's device rings")
    }

    @Test("a registered connection cannot switch to another user; re-registering as itself is idempotent")
    func noSwitching() {
        var h = RouterHarness()
        h.register(1, "alice")
        #expect(errorCodes(h.register(1, "bob"), to: 1) == [.alreadyRegistered])
        #expect(h.register(1, "alice") == [send(1, .registered(user: "alice"))])
        #expect(h.router.user(of: c(1)) == "alice")
    }

    @Test("acting before register is refused with notRegistered")
    func beforeRegister() {
        var h = RouterHarness()
        #expect(errorCodes(h.send(1, .invite(Invite(callId: "c1", to: "bob"))), to: 1) == [.notRegistered])
        #expect(errorCodes(h.send(1, .pick(queue: "q")), to: 1) == [.notRegistered])
    }

    @Test("the device limit per user is enforced")
    func deviceLimit() {
        var limits = SignalingLimits()
        limits.maxDevicesPerUser = 2
        var h = RouterHarness(limits: limits)
        h.register(1, "alice")
        h.register(2, "alice")
        #expect(errorCodes(h.register(3, "alice"), to: 3) == [.tooManyDevices])
        _ = h.close(1)
        #expect(h.register(3, "alice") == [send(3, .registered(user: "alice"))])
    }
}
