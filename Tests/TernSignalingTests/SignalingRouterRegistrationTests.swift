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

    @Test("secret mode accepts the lowercase hex HMAC-SHA256 of the user id")
    func secretModeAccepts() {
        var h = RouterHarness(secret: "s3cret")
        let token = SignalingToken.make(user: "alice", secret: "s3cret")
        #expect(token.count == 64 && token == token.lowercased())
        #expect(h.register(1, "alice", token: token) == [send(1, .registered(user: "alice"))])
    }

    @Test("RFC 4231 test case 2 vector: HMAC-SHA256(key \"Jefe\", \"what do ya want for nothing?\")")
    func hmacVector() {
        #expect(SignalingToken.make(user: "what do ya want for nothing?", secret: "Jefe")
            == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test("secret mode refuses a wrong token, another user's token and uppercase hex; the connection stays usable")
    func secretModeRefuses() {
        var h = RouterHarness(secret: "s3cret")
        let bobToken = SignalingToken.make(user: "bob", secret: "s3cret")
        #expect(errorCodes(h.register(1, "alice", token: "00"), to: 1) == [.unauthorized])
        #expect(errorCodes(h.register(1, "alice", token: bobToken), to: 1) == [.unauthorized])
        #expect(errorCodes(h.register(1, "alice", token: SignalingToken.make(user: "alice", secret: "s3cret").uppercased()), to: 1)
            == [.unauthorized])
        #expect(h.router.user(of: c(1)) == nil)
        #expect(h.register(1, "alice", token: SignalingToken.make(user: "alice", secret: "s3cret"))
            == [send(1, .registered(user: "alice"))])
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
