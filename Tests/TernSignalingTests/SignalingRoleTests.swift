import Testing
import TernSignaling

@Suite("Router: roles")
struct SignalingRoleTests {
    @Test("pick needs the agent role: a user's pick is refused forbidden and counted, the request stays for an agent")
    func pickNeedsAgent() {
        var h = RouterHarness(verifiesTokens: true)
        for (connection, user, role) in [(1, "customer", SignalingRole.user), (2, "mallory", .user), (3, "agent", .agent)] {
            _ = h.register(UInt64(connection), user, token: "jwt")
            _ = h.verified(UInt64(connection), user, .success(role))
        }
        _ = h.send(1, .enqueue(queue: "help", requestId: "r1", attachedData: [AttachedData(dataName: "account", dataValue: "42")]))
        let refused = h.send(2, .pick(queue: "help"))
        #expect(errorCodes(refused, to: 2) == [.forbidden])
        #expect(refused.count == 1, "the customer hears nothing of it")
        #expect(h.router.refusals[.forbidden] == 1)
        let picked = h.send(3, .pick(queue: "help"))
        #expect(picked.contains(send(3, .picked(queue: "help", requestId: "r1", customer: "customer",
                                                attachedData: [AttachedData(dataName: "account", dataValue: "42")]))))
        #expect(picked.contains(send(1, .assigned(queue: "help", requestId: "r1", agent: "agent"))))
    }

    @Test("open development mode registers everyone as an agent")
    func openModeIsAgent() {
        var h = RouterHarness()
        h.register(1, "anyone")
        #expect(h.router.role(of: c(1)) == .agent)
    }
}
