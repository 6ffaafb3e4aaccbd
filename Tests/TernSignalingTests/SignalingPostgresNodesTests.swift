import Foundation
import Logging
import Testing
import TernCore
import TernSignaling
import TernSignalingClient
@testable import TernSignalingPostgres
import TernSignalingServer

/// Three `SignalingServer` nodes on one real PostgreSQL (a throwaway cluster): clients spread over
/// the nodes call each other across nodes, and the races the shared log must decide are decided
/// once. (A node killed mid-call: Interop/signaling/node-failover, with real processes.)
@Suite("Signaling: three nodes on one PostgreSQL", .serialized, .enabled(if: PostgresCluster.enabled))
struct SignalingPostgresNodesTests {
    /// A client's messages, kept so a test can wait for the one it expects.
    actor Inbox {
        private var messages: [SignalingMessage] = []
        private var reader: Task<Void, Never>?

        init(_ client: SignalingClient) {
            let stream = client.messages
            Task { await self.start(stream) }
        }

        private func start(_ stream: AsyncStream<SignalingMessage>) {
            reader = Task { for await message in stream { self.append(message) } }
        }

        private func append(_ message: SignalingMessage) { messages.append(message) }

        /// The first message `matching` (removed from the inbox), waiting up to `seconds`.
        func next(seconds: Double = 20, _ matching: @Sendable (SignalingMessage) -> Bool) async -> SignalingMessage? {
            let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
            while ContinuousClock.now < deadline {
                if let index = messages.firstIndex(where: matching) { return messages.remove(at: index) }
                try? await Task.sleep(for: .milliseconds(5))
            }
            return nil
        }

        func all() -> [SignalingMessage] { messages }
    }

    struct Node {
        let server: SignalingServer
        let url: String
    }

    static func startNodes(_ cluster: PostgresCluster, count: Int = 3) async throws -> [Node] {
        var settings = SignalingPostgresLog.Settings()
        settings.heartbeatInterval = .milliseconds(200)
        settings.nodeDeadAfter = .seconds(2)
        settings.snapshotInterval = .milliseconds(500)
        var nodes: [Node] = []
        for _ in 0..<count {
            let log = try await SignalingPostgresLog.connect(url: cluster.url, settings: settings, logger: Logger(label: "test"))
            let server = SignalingServer(host: "127.0.0.1", port: 0, postgres: log)
            let port = try await server.start()
            nodes.append(Node(server: server, url: "ws://127.0.0.1:\(port)/v1"))
        }
        return nodes
    }

    static func client(_ user: String, _ node: Node) async throws -> (SignalingClient, Inbox) {
        let client = try await SignalingClient.connect(
            url: node.url, options: SignalingClientOptions(autoAcceptAssignedCalls: false, maxConcurrentCalls: nil))
        try await client.register(user: user, token: "")
        return (client, Inbox(client))
    }

    @Test("300 clients on 3 nodes: 150 calls, each between two nodes, run invite → ringing → accept → offer, answer, candidates → hangup; the tables empty afterwards")
    func crossNodeCalls() async throws {
        let cluster = try PostgresCluster.start()
        defer { cluster.stop() }
        let nodes = try await Self.startNodes(cluster)
        var clients: [(SignalingClient, Inbox)] = []
        for index in 0..<300 { clients.append(try await Self.client("u\(index)", nodes[index % 3])) }
        let pairs = clients
        let completed = await withTaskGroup(of: Bool.self) { group in
            for pair in 0..<150 {
                let (caller, callerIn) = pairs[2 * pair], (callee, calleeIn) = pairs[2 * pair + 1]
                group.addTask {
                    await Self.fullCall(id: "call-\(pair)", callee: "u\(2 * pair + 1)", caller: caller, callerIn: callerIn,
                                        calleeClient: callee, calleeIn: calleeIn)
                }
            }
            var completed = 0
            for await ok in group where ok { completed += 1 }
            return completed
        }
        #expect(completed == 150)
        for (client, _) in clients { await client.close() }
        // Every node's router agrees that nothing is left, and the compacting node's snapshot
        // lets the log go: no row of any call remains.
        var empty = false
        for _ in 0..<200 {
            let gauges = nodes.map { $0.server.switchboard.snapshot().gauges }
            let rows = (try? cluster.scalar("SELECT count(*) FROM tern_signal_log")) ?? "?"
            if gauges.allSatisfy({ $0.callsRinging + $0.callsAnswered + $0.connections + $0.connectionsAway == 0 }), rows == "0" {
                empty = true
                break
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(empty, "calls, connections or log rows left: \(nodes.map { $0.server.switchboard.snapshot().gauges })")
        #expect(try cluster.scalar("SELECT count(*) FROM tern_signal_snapshots") == "1")

        // A node started now joins from the snapshot (the log before it is gone) and serves calls
        // with the others.
        let late = try #require(try await Self.startNodes(cluster, count: 1).first)
        let (caller, callerIn) = try await Self.client("late-caller", late)
        let (callee, calleeIn) = try await Self.client("early-callee", nodes[0])
        #expect(await Self.fullCall(id: "late", callee: "early-callee", caller: caller, callerIn: callerIn,
                                    calleeClient: callee, calleeIn: calleeIn))
        await caller.close()
        await callee.close()
        for node in nodes + [late] { await node.server.shutdown() }
    }

    /// One call across two nodes, every step checked where it must arrive.
    static func fullCall(id: String, callee: String, caller: SignalingClient, callerIn: Inbox,
                         calleeClient: SignalingClient, calleeIn: Inbox) async -> Bool {
        do {
            try await caller.send(.invite(Invite(callId: id, to: callee, media: MediaOptions(audio: true))))
            guard await calleeIn.next({ $0.callId == id && $0.type == "invite" }) != nil else { return false }
            try await calleeClient.send(.ringing(callId: id))
            guard await callerIn.next({ $0 == .ringing(callId: id) }) != nil else { return false }
            try await calleeClient.send(.accept(callId: id))
            guard await callerIn.next({ $0 == .accept(callId: id) }) != nil else { return false }
            let offer = SignalingMessage.description(callId: id, description: .init(type: .offer, sdp: "v=0 offer \(id)"))
            let answer = SignalingMessage.description(callId: id, description: .init(type: .answer, sdp: "v=0 answer \(id)"))
            let candidate = SignalingMessage.candidate(callId: id, candidate: .init(
                candidate: "candidate:1 1 udp 1 127.0.0.1 9 typ host", sdpMid: "0", sdpMLineIndex: 0))
            try await caller.send(offer)
            guard await calleeIn.next({ $0 == offer }) != nil else { return false }
            try await calleeClient.send(answer)
            try await calleeClient.send(candidate)
            guard await callerIn.next({ $0 == answer }) != nil, await callerIn.next({ $0 == candidate }) != nil else { return false }
            try await caller.send(.hangup(callId: id))
            return await calleeIn.next({ $0 == .hangup(callId: id) }) != nil
        } catch {
            return false
        }
    }

    @Test("a batch retried after its commit went through (the reply lost) is not appended twice")
    func retriedBatchIsNotDuplicated() async throws {
        let cluster = try PostgresCluster.start()
        defer { cluster.stop() }
        let log = try await SignalingPostgresLog.connect(url: cluster.url, logger: Logger(label: "test"))
        let batch = log.stamped([.open(SignalingConnectionID(node: log.node, local: 1)),
                                 .frame(SignalingConnectionID(node: log.node, local: 1), text: #"{"type":"register","user":"a","token":""}"#)])
        #expect(try await log.appendOnce(batch))
        #expect(try await log.appendOnce(batch) == false)
        #expect(try cluster.scalar("SELECT count(*) FROM tern_signal_log") == "2")
        #expect(try cluster.scalar("SELECT seq FROM tern_signal_log_head") == "2", "the refused retry took no numbers")
        #expect(try await log.appendOnce(log.stamped([.tick])))
        #expect(try cluster.scalar("SELECT string_agg(seq::text, ',' ORDER BY seq) FROM tern_signal_log") == "1,2,3")
        await log.leave()
    }

    @Test("first accept wins across nodes: a household's two devices on two nodes accept at once; the door gets one accept, the other device answeredElsewhere")
    func firstAcceptWinsAcrossNodes() async throws {
        let cluster = try PostgresCluster.start()
        defer { cluster.stop() }
        let nodes = try await Self.startNodes(cluster)
        let (door, doorIn) = try await Self.client("door", nodes[2])
        let (kitchen, kitchenIn) = try await Self.client("house", nodes[0])
        let (hall, hallIn) = try await Self.client("house", nodes[1])
        for round in 0..<10 {
            let id = "ring-\(round)"
            try await door.send(.invite(Invite(callId: id, to: "house", media: MediaOptions(audio: true))))
            #expect(await kitchenIn.next({ $0.callId == id && $0.type == "invite" }) != nil)
            #expect(await hallIn.next({ $0.callId == id && $0.type == "invite" }) != nil)
            async let a: Void = kitchen.send(.accept(callId: id))
            async let b: Void = hall.send(.accept(callId: id))
            _ = try await (a, b)
            #expect(await doorIn.next({ $0 == .accept(callId: id) }) != nil)
            // The loser hears answeredElsewhere; its own accept came too late: notInCall.
            let kitchenLost = await kitchenIn.next(seconds: 0.5, { $0 == .answeredElsewhere(callId: id) }) != nil
            let hallLost = await hallIn.next(seconds: 0.5, { $0 == .answeredElsewhere(callId: id) }) != nil
            #expect(kitchenLost != hallLost, "exactly one device lost round \(round)")
            #expect(await doorIn.next(seconds: 0.3, { $0 == .accept(callId: id) }) == nil, "one accept only")
            try await door.send(.hangup(callId: id))
        }
        for client in [door, kitchen, hall] { await client.close() }
        for node in nodes { await node.server.shutdown() }
    }

    @Test("busy across nodes: two callers on two nodes invite one callee on a third at once; it takes one call and answers the other busy")
    func busyAcrossNodes() async throws {
        let cluster = try PostgresCluster.start()
        defer { cluster.stop() }
        let nodes = try await Self.startNodes(cluster)
        let (agent, agentIn) = try await Self.client("agent", nodes[2])
        let (first, firstIn) = try await Self.client("first", nodes[0])
        let (second, secondIn) = try await Self.client("second", nodes[1])
        async let a: Void = first.send(.invite(Invite(callId: "c-first", to: "agent", media: MediaOptions(audio: true))))
        async let b: Void = second.send(.invite(Invite(callId: "c-second", to: "agent", media: MediaOptions(audio: true))))
        _ = try await (a, b)
        // The callee decides busy (Docs/SIGNALING.md): the first invite it sees it accepts.
        let winner = try #require(await agentIn.next({ $0.type == "invite" })?.callId)
        let loser = winner == "c-first" ? "c-second" : "c-first"
        try await agent.send(.accept(callId: winner))
        #expect(await agentIn.next({ $0.callId == loser && $0.type == "invite" }) != nil)
        try await agent.send(.reject(callId: loser, reason: .busy))
        let (winnerIn, loserIn) = winner == "c-first" ? (firstIn, secondIn) : (secondIn, firstIn)
        #expect(await winnerIn.next({ $0 == .accept(callId: winner) }) != nil)
        #expect(await loserIn.next({ $0 == .reject(callId: loser, reason: .busy) }) != nil)
        for client in [agent, first, second] { await client.close() }
        for node in nodes { await node.server.shutdown() }
    }
}
