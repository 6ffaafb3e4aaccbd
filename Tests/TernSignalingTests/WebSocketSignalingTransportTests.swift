import NIOCore
import NIOWebSocket
import Testing
import TernSignaling
import TernSignalingClient
import TernSignalingServer

@Suite("WebSocketSignalingTransport: plain ws:// client on SwiftNIO", .timeLimit(.minutes(1)))
struct WebSocketSignalingTransportTests {
    /// The reason inside a `.failed` error, or `nil` for anything else.
    static func reason(connecting url: String) async -> String? {
        do {
            _ = try await WebSocketSignalingTransport.connect(url: url)
            return nil
        } catch {
            if case .failed(let reason) = error { return reason }
            return nil
        }
    }

    @Test("URLs that are not ws:// or are malformed are refused with a reason naming the problem",
          arguments: [("http://127.0.0.1:8787/v1", "unsupported URL scheme"), ("ws://127.0.0.1:0/v1", "port"),
                      ("ws://127.0.0.1:99999/v1", "port"), ("ws:///v1", "no host"), ("ws://[::1/v1", "IPv6")])
    func badURLs(url: String, mention: String) async {
        let reason = await Self.reason(connecting: url)
        #expect(reason?.contains(mention) == true, "got \(reason ?? "no failure")")
    }

    @Test("a path the server does not upgrade fails with the server's HTTP status, not a hang")
    func upgradeRefused() async throws {
        let server = SignalingServer(host: "127.0.0.1", port: 0, limits: .unhurried)
        let port = try await server.start()
        let reason = await Self.reason(connecting: "ws://127.0.0.1:\(port)/not-v1")
        #expect(reason?.contains("instead of upgrading to WebSocket") == true, "got \(reason ?? "no failure")")
        await server.shutdown()
    }

    @Test("a ~200 KiB session description is relayed intact between two clients over the real server")
    func largeDescriptionRelayed() async throws {
        let server = SignalingServer(host: "127.0.0.1", port: 0, limits: .unhurried)
        let port = try await server.start()
        let url = "ws://127.0.0.1:\(port)/v1"
        let alice = try await SignalingClient.connect(url: url)
        let bob = try await SignalingClient.connect(url: url)
        try await alice.register(user: "alice", token: "")
        try await bob.register(user: "bob", token: "")
        _ = await next(alice); _ = await next(bob)
        try await alice.send(.invite(Invite(callId: "big", to: "bob")))
        guard case .invite = await next(bob) else { Issue.record("no invite"); return }
        try await bob.send(.accept(callId: "big"))
        #expect(await next(alice) == .accept(callId: "big"))

        // 200 KiB of distinct SDP lines: under the router's 256 KiB limit, far over one
        // TCP segment and over the 64 KiB boundary of the 16-bit frame length (RFC 6455 §5.2).
        var sdp = "v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n"
        var line = 0
        while sdp.utf8.count < 200 * 1024 {
            sdp += "a=x-tern-padding:\(line) é✓\r\n"
            line += 1
        }
        let offer = SignalingMessage.description(callId: "big", description: .init(type: .offer, sdp: sdp))
        try await alice.send(offer)
        #expect(await next(bob) == offer)
        let answer = SignalingMessage.description(callId: "big", description: .init(type: .answer, sdp: sdp))
        try await bob.send(answer)
        #expect(await next(alice) == answer)
        await alice.close(); await bob.close()
        await server.shutdown()
    }

    @Test("fragmented and binary messages are reassembled, Pings get masked Pongs with their payload")
    func fragmentsPingsAndMasking() async throws {
        func frame(_ opcode: WebSocketOpcode, _ text: String, fin: Bool = true) -> WebSocketFrame {
            WebSocketFrame(fin: fin, opcode: opcode, data: ByteBuffer(string: text))
        }
        let server = try await ScriptedWebSocketServer.start(script: [
            frame(.ping, "p1"),
            frame(.text, "hello, ", fin: false),
            frame(.ping, "p2"),  // control frames may come between fragments (§5.4)
            frame(.continuation, "wor", fin: false),
            frame(.continuation, "ld"),
            frame(.binary, #"{"type":"binary"}"#),
        ])
        let transport = try await WebSocketSignalingTransport.connect(url: "ws://127.0.0.1:\(server.port)/v1")
        var incoming = transport.incoming.makeAsyncIterator()
        #expect(await incoming.next() == "hello, world")
        #expect(await incoming.next() == #"{"type":"binary"}"#)
        try await transport.send("from the client")
        await transport.close()

        var frames: [WebSocketFrame] = []
        for await frame in server.received { frames.append(frame) }
        #expect(frames.map(\.opcode) == [.pong, .pong, .text, .connectionClose])
        #expect(frames.map { String(buffer: $0.unmaskedData) }.prefix(3) == ["p1", "p2", "from the client"])
        #expect(frames.allSatisfy { $0.maskKey != nil }, "every client frame is masked (RFC 6455 §5.3)")
        var close = frames.last?.unmaskedData
        #expect(close?.readWebSocketErrorCode() == .normalClosure)
        await #expect(throws: SignalingTransportError.closed) { try await transport.send("too late") }
        await server.shutdown()
    }

    @Test("a large message the server sends right after the 101 is not lost, however the reads split it")
    func messageRightAfterUpgrade() async throws {
        let text = String(repeating: "0123456789abcdef", count: 45_000)  // 720,000 bytes, many reads
        for _ in 0..<5 {
            let server = try await ScriptedWebSocketServer.start(script: [
                WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: text)),
            ])
            let transport = try await WebSocketSignalingTransport.connect(url: "ws://127.0.0.1:\(server.port)/v1")
            var incoming = transport.incoming.makeAsyncIterator()
            #expect(await incoming.next() == text)
            await transport.close()
            await server.shutdown()
        }
    }

    @Test("a message over 1 MiB in fragments makes the client close with 1009 and finish incoming")
    func oversizedFragmentedMessageCloses() async throws {
        let half = String(repeating: "z", count: WebSocketSignalingTransport.maxFrameSize / 2 + 1)
        let server = try await ScriptedWebSocketServer.start(script: [
            WebSocketFrame(fin: false, opcode: .text, data: ByteBuffer(string: half)),
            WebSocketFrame(fin: true, opcode: .continuation, data: ByteBuffer(string: half)),
        ])
        let transport = try await WebSocketSignalingTransport.connect(url: "ws://127.0.0.1:\(server.port)/v1")
        var incoming = transport.incoming.makeAsyncIterator()
        #expect(await incoming.next() == nil)
        var frames: [WebSocketFrame] = []
        for await frame in server.received { frames.append(frame) }
        #expect(frames.map(\.opcode) == [.connectionClose])
        var close = frames.first?.unmaskedData
        #expect(close?.readWebSocketErrorCode() == .messageTooLarge)
        await transport.close()
        await server.shutdown()
    }
}
