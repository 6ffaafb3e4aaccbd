import Foundation
import Testing
import TernSignaling
import TernSignalingClient
import TernSignalingServer
import TernTestSupport

/// Hostile signaling clients against the real server, all at once, while alice and bob keep a
/// call going: a reader that stops reading, a flood of connections that never register, a
/// client sending 10,000 frames as fast as it can, a look-alike user id, a pick without the
/// agent role. Each is refused and counted; memory stays bounded; the call goes on.
@Suite("Signaling server: hostile clients beside a call", .serialized)
struct SignalingHostileClientsTests {
    @Test("slow reader, connection flood, 10,000 frames, look-alike id, pick without agent: each counted, RSS bounded, the call goes on")
    func hostileClientsBesideACall() async throws {
        let tokens = try await SignalingTokens(secret: testSecret)
        // The default limits: a register deadline shortened for the test closed this test's own
        // clients when the full suite kept the cooperative pool busy for seconds.
        let server = SignalingServer(host: "127.0.0.1", port: 0, tokens: tokens)
        let port = try await server.start()
        let url = "ws://127.0.0.1:\(port)/v1"
        func client(_ user: String, _ role: SignalingRole = .user) async throws -> SignalingClient {
            let token = try await tokens.mint(user: user, role: role, lifetime: .seconds(60))
            let client = try await SignalingClient.connect(url: url, options: SignalingClientOptions(maxConcurrentCalls: nil))
            try await client.register(user: user, token: token)
            #expect(await next(client) == .registered(user: user))
            return client
        }
        let alice = try await client("alice"), bob = try await client("bob")
        try await alice.send(.invite(Invite(callId: "call", to: "bob")))
        guard case .invite = await next(bob) else { Issue.record("no invite"); return }
        try await bob.send(.accept(callId: "call"))
        #expect(await next(alice) == .accept(callId: "call"))
        let before = await ProcessResources.settled()

        // 1. A reader that stops reading: eve upgrades and registers by hand, then never reads
        //    while mallory rings her with 250 KiB invites (the kernel's buffers fill first, then
        //    the server's 4 MiB budget).
        let eveToken = try await tokens.mint(user: "eve", lifetime: .seconds(60))
        let eve = try RawConnection(port: port)
        #expect(await offPool { eve.upgradeToWebSocket(port: port) })
        let registeredBefore = server.switchboard.snapshot().gauges.registered
        eve.sendText(SignalingCodec.encode(.register(user: "eve", token: eveToken)))
        let mallory = try await client("mallory")
        let bulky = [AttachedData(dataName: "pad", dataValue: String(repeating: "x", count: 250 * 1024))]
        // Eve's registration (her token checked) before anything rings her: an invite to a
        // user with no device is refused as `unavailable` and would never reach her socket.
        #expect(await eventually { server.switchboard.snapshot().gauges.registered >= registeredBefore + 2 }, "eve and mallory registered")
        for index in 0..<60 {
            try? await mallory.send(.invite(Invite(callId: "bulk-\(index)", to: "eve", attachedData: bulky)))
        }
        #expect(await eventually { server.switchboard.slowConsumersClosed == 1 }, "eve closed for not reading")
        // Her socket is dropped too, though the close frame can never reach her.
        #expect(await eventually(seconds: 20) { server.counters.writeTimeouts == 1 })

        // 2. 300 connections that upgrade and never register: closed at registerTimeoutMs (10 s).
        var idle: [RawConnection] = []
        for _ in 0..<300 {
            let connection = try RawConnection(port: port)
            if await offPool({ connection.upgradeToWebSocket(port: port) }) { idle.append(connection) }
        }
        #expect(idle.count == 300)
        #expect(await eventually(seconds: 60) { server.switchboard.connectionCount <= 4 }, "open: \(server.switchboard.connectionCount)")

        // 3. 10,000 frames as fast as a socket takes them: rate-limited, then closed.
        let floodToken = try await tokens.mint(user: "flood", lifetime: .seconds(60))
        let flooder = try RawConnection(port: port)
        #expect(await offPool { flooder.upgradeToWebSocket(port: port) })
        let registeredBeforeFlood = server.switchboard.snapshot().gauges.registered
        flooder.sendText(SignalingCodec.encode(.register(user: "flood", token: floodToken)))
        #expect(await eventually { server.switchboard.snapshot().gauges.registered > registeredBeforeFlood }, "the flooder registered (its token checked)")
        let again = SignalingCodec.encode(.register(user: "flood", token: try await tokens.mint(user: "flood", lifetime: .seconds(60))))
        await offPool { for _ in 0..<10_000 { flooder.sendText(again) } }
        // (Its first 200 re-registers are answered, as a burst may be; then 100 refusals in a row close it.)
        #expect(await eventually { server.switchboard.refusals[.rateLimited, default: 0] >= 100 })
        #expect(await eventually(seconds: 30) { server.switchboard.connectionCount <= 4 }, "the flooder is gone")

        // 4. A token for a look-alike spelling of alice's name does not register as her.
        let lookAlike = try await SignalingClient.connect(url: url)
        let decomposedToken = try await tokens.mint(user: "Ali\u{301}ce", lifetime: .seconds(60))
        await #expect(throws: SignalingClientError.self) { try await lookAlike.register(user: "Alíce", token: decomposedToken) }
        await lookAlike.close()

        // 5. A pick without the agent role.
        try await alice.send(.enqueue(queue: "help", requestId: "r1", attachedData: []))
        _ = await next(alice)
        try await mallory.send(.pick(queue: "help"))
        #expect(await eventually { server.switchboard.refusals[.forbidden, default: 0] == 1 })

        // The call goes on, and memory came back within bounds.
        let offer = SignalingMessage.description(callId: "call", description: SignalingSessionDescription(type: .offer, sdp: "v=0"))
        try await alice.send(offer)
        #expect(await next(bob) == offer)
        let after = await ProcessResources.settled()
        #expect(after.residentGrowth(since: before, isBelowKiB: 64 * 1024), "RSS \(before.residentKiB) → \(after.residentKiB) KiB")
        #expect(server.switchboard.refusals[.badToken, default: 0] >= 1)
        idle.removeAll()
        for client in [alice, bob, mallory] { await client.close() }
        await server.shutdown()
    }

    private func eventually(seconds: Int = 10, _ condition: @Sendable () async -> Bool) async -> Bool {
        for _ in 0..<(seconds * 20) {
            if await condition() { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return await condition()
    }
}
