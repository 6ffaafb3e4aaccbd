import Testing
import TernCore
import TernSignaling
import TernSignalingServer

/// Reads the next message from a client's stream.
func next(_ client: SignalingClient) async -> SignalingMessage? {
    var iterator = client.messages.makeAsyncIterator()
    return await iterator.next()
}

@Suite("SignalingClient over the in-memory transport")
struct SignalingClientInMemoryTests {
    static func client(_ board: SignalingSwitchboard, _ user: String,
                       options: SignalingClientOptions = SignalingClientOptions()) async throws -> SignalingClient
    {
        let client = SignalingClient(transport: InMemorySignalingTransport(switchboard: board), options: options)
        try await client.register(user: user, token: "dev")
        return client
    }

    @Test("register, invite, accept, description relay, hangup; activeCalls follows")
    func call() async throws {
        let board = SignalingSwitchboard()
        let alice = try await Self.client(board, "alice")
        let bob = try await Self.client(board, "bob")
        #expect(await next(alice) == .registered(user: "alice"))
        #expect(await next(bob) == .registered(user: "bob"))

        try await alice.send(.invite(Invite(callId: "c1", to: "bob")))
        guard case .invite(let invite) = await next(bob) else { Issue.record("no invite"); return }
        #expect(invite.from == "alice")
        try await bob.send(.accept(callId: "c1"))
        #expect(await next(alice) == .accept(callId: "c1"))
        #expect(await alice.activeCalls == ["c1"])
        #expect(await bob.activeCalls == ["c1"])

        let offer = SignalingMessage.description(callId: "c1", description: .init(type: .offer, sdp: "v=0"))
        try await alice.send(offer)
        #expect(await next(bob) == offer)
        try await bob.send(.hangup(callId: "c1"))
        #expect(await next(alice) == .hangup(callId: "c1"))
        #expect(await alice.activeCalls.isEmpty)
        await alice.close()
        await bob.close()
    }

    @Test("register with a wrong token throws refused(badToken); a minted one registers")
    func wrongToken() async throws {
        let tokens = try await SignalingTokens(secret: testSecret)
        let board = SignalingSwitchboard(tokenVerifier: tokens)
        let client = SignalingClient(transport: InMemorySignalingTransport(switchboard: board))
        await #expect(throws: SignalingClientError.refused(SignalingError(
            code: .badToken, message: "the token is not a JWT signed with this server's secret (HS256)"))) {
            try await client.register(user: "alice", token: "00")
        }
        try? await client.register(user: "alice", token: try await tokens.mint(user: "alice", lifetime: .seconds(60)))
        #expect(await client.user == "alice")
        await client.close()
    }

    @Test("a client in a call answers a second invite with reject busy by itself")
    func busy() async throws {
        let board = SignalingSwitchboard()
        let alice = try await Self.client(board, "alice")
        let bob = try await Self.client(board, "bob")
        let carol = try await Self.client(board, "carol")
        _ = await next(alice); _ = await next(bob); _ = await next(carol)
        try await alice.send(.invite(Invite(callId: "c1", to: "bob")))
        _ = await next(bob)
        try await bob.send(.accept(callId: "c1"))
        _ = await next(alice)
        try await carol.send(.invite(Invite(callId: "c2", to: "bob")))
        #expect(await next(carol) == .reject(callId: "c2", reason: .busy))
        await alice.close(); await bob.close(); await carol.close()
    }

    @Test("queue flow, auto-accept turned on: the customer's client accepts the picking agent's invite by itself")
    func queueAutoAccept() async throws {
        #expect(SignalingClientOptions().autoAcceptAssignedCalls == false, "off unless the application turns it on")
        let board = SignalingSwitchboard()
        let dave = try await Self.client(board, "dave", options: SignalingClientOptions(autoAcceptAssignedCalls: true))
        let carol = try await Self.client(board, "carol")
        _ = await next(dave); _ = await next(carol)
        try await dave.send(.enqueue(queue: "support", requestId: "r1", attachedData: [.init(dataName: "k", dataValue: "v")]))
        #expect(await next(dave) == .queuePosition(queue: "support", requestId: "r1", position: 1))
        try await carol.send(.pick(queue: "support"))
        #expect(await next(carol) == .picked(queue: "support", requestId: "r1", customer: "dave",
                                             attachedData: [.init(dataName: "k", dataValue: "v")]))
        #expect(await next(dave) == .assigned(queue: "support", requestId: "r1", agent: "carol"))
        try await carol.send(.invite(Invite(callId: "q1", to: "dave")))
        #expect(await next(carol) == .accept(callId: "q1"))
        guard case .invite = await next(dave) else { Issue.record("invite not delivered"); return }
        #expect(await dave.activeCalls == ["q1"])
        await dave.close(); await carol.close()
    }

    @Test("timeouts through the switchboard follow its clock")
    func timeoutWithManualClock() async throws {
        let clock = ManualClock()
        let board = SignalingSwitchboard(clock: clock)
        let alice = try await Self.client(board, "alice")
        let bob = try await Self.client(board, "bob")
        _ = await next(alice); _ = await next(bob)
        try await alice.send(.invite(Invite(callId: "c1", to: "bob", timeoutMs: 1000)))
        _ = await next(bob)
        clock.advance(by: .milliseconds(999))
        #expect(board.fireTimeouts() == clock.now() + Duration.milliseconds(1))
        clock.advance(by: .milliseconds(1))
        #expect(board.fireTimeouts() == nil)
        #expect(await next(alice) == .timeout(callId: "c1"))
        #expect(await next(bob) == .timeout(callId: "c1"))
        await alice.close(); await bob.close()
    }

    @Test("an accept that loses the race leaves no active call behind, so the device is not stuck busy")
    func lostAcceptRace() async throws {
        let board = SignalingSwitchboard()
        let alice = try await Self.client(board, "alice")
        let phone = try await Self.client(board, "bob")
        let laptop = try await Self.client(board, "bob")
        _ = await next(alice); _ = await next(phone); _ = await next(laptop)
        try await alice.send(.invite(Invite(callId: "c1", to: "bob")))
        _ = await next(phone); _ = await next(laptop)
        try await phone.send(.accept(callId: "c1"))
        try await laptop.send(.accept(callId: "c1"))  // crosses the answeredElsewhere
        #expect(await next(laptop) == .answeredElsewhere(callId: "c1"))
        guard case .error(let error) = await next(laptop) else { Issue.record("no error"); return }
        #expect(error.code == .notInCall)
        #expect(await laptop.activeCalls.isEmpty)
        await alice.close(); await phone.close(); await laptop.close()
    }

    @Test("send after close throws transport(closed)")
    func sendAfterClose() async throws {
        let board = SignalingSwitchboard()
        let alice = try await Self.client(board, "alice")
        await alice.close()
        await #expect(throws: SignalingClientError.transport(.closed)) { try await alice.send(.pick(queue: "q")) }
        #expect(board.connectionCount == 0)
    }
}

