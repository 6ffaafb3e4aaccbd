import Foundation
import Testing
import TernSignaling
import TernSignalingClient
import TernSignalingServer

@Suite("End to end: real WebSocket server on 127.0.0.1 and real clients")
struct SignalingServerEndToEndTests {
    @Test("register, invite, ringing, accept, description and candidate relay, hangup (tokens checked)")
    func call() async throws {
        let tokens = try await SignalingTokens(secret: testSecret)
        let server = SignalingServer(host: "127.0.0.1", port: 0, tokens: tokens, limits: .unhurried)
        let port = try await server.start()
        let url = "ws://127.0.0.1:\(port)/v1"
        let alice = try await SignalingClient.connect(url: url)
        let bob = try await SignalingClient.connect(url: url)
        try await alice.register(user: "alice", token: try await tokens.mint(user: "alice", lifetime: .seconds(60)))
        try await bob.register(user: "bob", token: try await tokens.mint(user: "bob", lifetime: .seconds(60)))
        #expect(await next(alice) == .registered(user: "alice"))
        #expect(await next(bob) == .registered(user: "bob"))

        try await alice.send(.invite(Invite(callId: "c1", to: "bob", media: MediaOptions(audio: true, video: true),
                                            attachedData: [.init(dataName: "subject", dataValue: "hello")], timeoutMs: 600_000)))
        guard case .invite(let invite) = await next(bob) else { Issue.record("no invite"); return }
        #expect(invite.from == "alice" && invite.attachedData == [.init(dataName: "subject", dataValue: "hello")])
        try await bob.send(.ringing(callId: "c1"))
        #expect(await next(alice) == .ringing(callId: "c1"))
        try await bob.send(.accept(callId: "c1"))
        #expect(await next(alice) == .accept(callId: "c1"))

        let offer = SignalingMessage.description(callId: "c1", description: .init(
            type: .offer, sdp: "v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n"))
        try await alice.send(offer)
        #expect(await next(bob) == offer)
        let answer = SignalingMessage.description(callId: "c1", description: .init(type: .answer, sdp: "v=0\r\n"))
        try await bob.send(answer)
        #expect(await next(alice) == answer)
        let candidate = SignalingMessage.candidate(callId: "c1", candidate: .init(
            candidate: "candidate:1 1 udp 2130706431 127.0.0.1 50000 typ host", sdpMid: "0", sdpMLineIndex: 0))
        try await bob.send(candidate)
        #expect(await next(alice) == candidate)
        try await alice.send(.candidate(callId: "c1", candidate: nil))
        #expect(await next(bob) == .candidate(callId: "c1", candidate: nil))

        try await alice.send(.hangup(callId: "c1"))
        #expect(await next(bob) == .hangup(callId: "c1"))

        await alice.close()
        await bob.close()
        await server.shutdown()
    }

    @Test("wrong token, expired token, bad JSON and a 300 KiB frame get errors over the socket; the connection keeps serving")
    func badInputOverSocket() async throws {
        let tokens = try await SignalingTokens(secret: testSecret)
        let server = SignalingServer(host: "127.0.0.1", port: 0, tokens: tokens, limits: .unhurried)
        let port = try await server.start()
        let url = "ws://127.0.0.1:\(port)/v1"
        let transport = try await WebSocketSignalingTransport.connect(url: url)
        var incoming = transport.incoming.makeAsyncIterator()
        func code() async throws -> SignalingErrorCode? {
            guard let text = await incoming.next() else { return nil }
            if case .error(let error) = try SignalingCodec.decode(text) { return error.code }
            return nil
        }
        try await transport.send(#"{"type":"register","user":"alice","token":"00"}"#)
        #expect(try await code() == .badToken)
        let expired = try await tokens.mint(user: "alice", lifetime: .seconds(60), notBefore: Date(timeIntervalSinceNow: -120))
        try await transport.send(SignalingCodec.encode(.register(user: "alice", token: expired)))
        #expect(try await code() == .tokenExpired)
        try await transport.send("not json")
        #expect(try await code() == .badJSON)
        try await transport.send(#"{"type":"x","pad":""# + String(repeating: "y", count: 300 * 1024) + #""}"#)
        #expect(try await code() == .frameTooLarge)
        try await transport.send(SignalingCodec.encode(.register(
            user: "alice", token: try await tokens.mint(user: "alice", lifetime: .seconds(60)))))
        #expect(await incoming.next() == #"{"type":"registered","user":"alice"}"#)
        await transport.close()
        await server.shutdown()
    }

    @Test("one user on two devices: both ring, the first accept wins, the other hears answeredElsewhere")
    func multiDevice() async throws {
        let server = SignalingServer(host: "127.0.0.1", port: 0, limits: .unhurried)
        let port = try await server.start()
        let url = "ws://127.0.0.1:\(port)/v1"
        let alice = try await SignalingClient.connect(url: url)
        let phone = try await SignalingClient.connect(url: url)
        let laptop = try await SignalingClient.connect(url: url)
        for (client, user) in [(alice, "alice"), (phone, "bob"), (laptop, "bob")] {
            try await client.register(user: user, token: "")
            _ = await next(client)
        }
        try await alice.send(.invite(Invite(callId: "c1", to: "bob", timeoutMs: 600_000)))
        guard case .invite = await next(phone), case .invite = await next(laptop) else {
            Issue.record("both devices should ring"); return
        }
        try await laptop.send(.accept(callId: "c1"))
        #expect(await next(alice) == .accept(callId: "c1"))
        #expect(await next(phone) == .answeredElsewhere(callId: "c1"))
        for client in [alice, phone, laptop] { await client.close() }
        await server.shutdown()
    }

    @Test("the server's timer sends timeout to both sides of an unanswered call")
    func ringTimeout() async throws {
        let server = SignalingServer(host: "127.0.0.1", port: 0, limits: .unhurried)
        let port = try await server.start()
        let url = "ws://127.0.0.1:\(port)/v1"
        let alice = try await SignalingClient.connect(url: url)
        let bob = try await SignalingClient.connect(url: url)
        try await alice.register(user: "alice", token: "")
        try await bob.register(user: "bob", token: "")
        _ = await next(alice); _ = await next(bob)
        try await alice.send(.invite(Invite(callId: "c1", to: "bob", timeoutMs: 50)))
        guard case .invite = await next(bob) else { Issue.record("no invite"); return }
        #expect(await next(alice) == .timeout(callId: "c1"))
        #expect(await next(bob) == .timeout(callId: "c1"))
        await alice.close(); await bob.close()
        await server.shutdown()
    }

    @Test("shutdown closes the clients' connections: their message streams finish and sends fail")
    func gracefulShutdown() async throws {
        let server = SignalingServer(host: "127.0.0.1", port: 0, limits: .unhurried)
        let port = try await server.start()
        let alice = try await SignalingClient.connect(url: "ws://127.0.0.1:\(port)/v1")
        try await alice.register(user: "alice", token: "")
        #expect(await next(alice) == .registered(user: "alice"))
        await server.shutdown()
        #expect(await next(alice) == nil)
        await #expect(throws: SignalingClientError.transport(.closed)) { try await alice.send(.pick(queue: "q")) }
        await #expect(throws: SignalingTransportError.self) {
            _ = try await WebSocketSignalingTransport.connect(url: "ws://127.0.0.1:\(port)/v1")
        }
    }

    @Test("a frame over the 1 MiB hard limit makes the server close that WebSocket; others keep working")
    func hardLimitCloses() async throws {
        let server = SignalingServer(host: "127.0.0.1", port: 0, limits: .unhurried)
        let port = try await server.start()
        let url = "ws://127.0.0.1:\(port)/v1"
        let flooder = try await WebSocketSignalingTransport.connect(url: url)
        let alice = try await SignalingClient.connect(url: url)
        try await flooder.send(String(repeating: "z", count: SignalingServer.hardFrameLimit + 1))
        var incoming = flooder.incoming.makeAsyncIterator()
        #expect(await incoming.next() == nil)
        try await alice.register(user: "alice", token: "")
        #expect(await next(alice) == .registered(user: "alice"))
        await flooder.close(); await alice.close()
        await server.shutdown()
    }

    @Test("a second server on a port in use fails to start instead of hanging")
    func portInUse() async throws {
        let first = SignalingServer(host: "127.0.0.1", port: 0, limits: .unhurried)
        let port = try await first.start()
        let second = SignalingServer(host: "127.0.0.1", port: port)
        await #expect(throws: (any Error).self) { try await second.start() }
        await first.shutdown()
    }
}


@Suite("End to end: a one-to-one client from before group calls and push")
struct SignalingLegacyClientTests {
    /// A raw WebSocket speaking the frames protocol v1 had before group calls, byte for byte.
    struct RawClient {
        let transport: WebSocketSignalingTransport
        var incoming: AsyncStream<String>.Iterator
        init(url: String) async throws {
            transport = try await WebSocketSignalingTransport.connect(url: url)
            incoming = transport.incoming.makeAsyncIterator()
        }
        func send(_ text: String) async throws { try await transport.send(text) }
        mutating func next() async -> String? { await incoming.next() }
    }

    @Test("an old client calls a group-aware client and is called by one: the frames it gets are exactly the old ones")
    func oldClientStillWorks() async throws {
        let server = SignalingServer(host: "127.0.0.1", port: 0, limits: .unhurried)
        let url = "ws://127.0.0.1:\(try await server.start())/v1"
        var old = try await RawClient(url: url)
        let new = try await SignalingClient.connect(url: url)
        try await old.send(#"{"type":"register","user":"oldbob","token":"x"}"#)
        #expect(await old.next() == #"{"type":"registered","user":"oldbob"}"#)
        try await new.register(user: "alice", token: "x")
        #expect(await next(new) == .registered(user: "alice"))

        // Called by the new client: the invite keeps `to` as a string, no `mode`.
        try await new.send(.invite(Invite(callId: "c1", to: "oldbob", media: .audioOnly)))
        #expect(await old.next()
            == #"{"attachedData":[],"callId":"c1","from":"alice","media":{"audio":true,"data":false,"video":false},"rejectPolicy":"all","timeoutMs":30000,"to":"oldbob","type":"invite"}"#)
        try await old.send(#"{"type":"accept","callId":"c1"}"#)
        #expect(await next(new) == .accept(callId: "c1"))
        try await new.send(.description(callId: "c1", description: .init(type: .offer, sdp: "v=0\r\n")))
        #expect(await old.next() == #"{"callId":"c1","description":{"sdp":"v=0\r\n","type":"offer"},"type":"description"}"#)
        try await old.send(#"{"type":"candidate","callId":"c1","candidate":null}"#)
        #expect(await next(new) == .candidate(callId: "c1", candidate: nil))
        try await old.send(#"{"type":"hangup","callId":"c1"}"#)
        #expect(await next(new) == .hangup(callId: "c1"))

        // Calling the new client with the old invite shape.
        try await old.send(#"{"type":"invite","callId":"c2","to":"alice","media":{"audio":true}}"#)
        guard case .invite(let invite)? = await next(new) else { Issue.record("no invite"); return }
        #expect(invite.mode == .oneToOne && invite.to == ["alice"] && invite.from == "oldbob")
        try await new.send(.accept(callId: "c2"))
        #expect(await old.next() == #"{"callId":"c2","type":"accept"}"#)
        await new.close()
        await old.transport.close()
        await server.shutdown()
    }
}
