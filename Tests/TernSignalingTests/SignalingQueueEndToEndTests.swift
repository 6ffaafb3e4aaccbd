import Testing
import TernSignaling
import TernSignalingClient
import TernSignalingServer

/// The call-centre queue over the real WebSocket server: customers wait with attached data, one
/// leaves, the agent picks the others in order and calls the first, whose client answers by itself.
@Suite("End to end: queue through the real server")
struct SignalingQueueEndToEndTests {
    static let order = [AttachedData(dataName: "order", dataValue: "42")]

    @Test("three customers (auto-accept on), one agent (agent token): positions update, a customer dequeues, the agent picks the rest in order")
    func threeCustomersOneAgent() async throws {
        let tokens = try await SignalingTokens(secret: testSecret)
        let server = SignalingServer(host: "127.0.0.1", port: 0, tokens: tokens, limits: .unhurried)
        let port = try await server.start()
        let url = "ws://127.0.0.1:\(port)/v1"
        func client(_ user: String, _ role: SignalingRole = .user) async throws -> SignalingClient {
            let client = try await SignalingClient.connect(url: url, options: SignalingClientOptions(autoAcceptAssignedCalls: true))
            try await client.register(user: user, token: try await tokens.mint(user: user, role: role, lifetime: .seconds(60)))
            #expect(await next(client) == .registered(user: user))
            return client
        }
        let dave = try await client("dave"), erin = try await client("erin"), frank = try await client("frank")
        let carol = try await client("carol", .agent)

        try await dave.send(.enqueue(queue: "support", requestId: "r1", attachedData: Self.order))
        #expect(await next(dave) == .queuePosition(queue: "support", requestId: "r1", position: 1))
        try await erin.send(.enqueue(queue: "support", requestId: "r2", attachedData: []))
        #expect(await next(erin) == .queuePosition(queue: "support", requestId: "r2", position: 2))
        try await frank.send(.enqueue(queue: "support", requestId: "r3", attachedData: []))
        #expect(await next(frank) == .queuePosition(queue: "support", requestId: "r3", position: 3))

        // erin stops waiting: frank moves up.
        try await erin.send(.dequeue(queue: "support", requestId: "r2"))
        #expect(await next(erin) == .dequeued(queue: "support", requestId: "r2"))
        #expect(await next(frank) == .queuePosition(queue: "support", requestId: "r3", position: 2))

        try await carol.send(.pick(queue: "support"))
        #expect(await next(carol) == .picked(queue: "support", requestId: "r1", customer: "dave", attachedData: Self.order))
        #expect(await next(dave) == .assigned(queue: "support", requestId: "r1", agent: "carol"))
        #expect(await next(frank) == .queuePosition(queue: "support", requestId: "r3", position: 1))

        try await carol.send(.pick(queue: "support"))
        #expect(await next(carol) == .picked(queue: "support", requestId: "r3", customer: "frank", attachedData: []))
        #expect(await next(frank) == .assigned(queue: "support", requestId: "r3", agent: "carol"))

        try await carol.send(.pick(queue: "support"))
        guard case let .error(error)? = await next(carol) else { Issue.record("an empty queue must be refused"); return }
        #expect(error.code == .queueEmpty)

        // The agent calls the first customer; the customer's client accepts an assigned agent's call itself.
        try await carol.send(.invite(Invite(callId: "q1", to: "dave")))
        guard case .invite(let invite)? = await next(dave) else { Issue.record("invite not delivered"); return }
        #expect(invite.from == "carol")
        #expect(await next(carol) == .accept(callId: "q1"))

        for client in [dave, erin, frank, carol] { await client.close() }
        await server.shutdown()
    }
}
