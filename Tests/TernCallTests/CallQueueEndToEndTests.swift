import Synchronization
import Testing
import TernCall
import TernCore
import TernSignaling
import TernSignalingClient
import TernSignalingServer

/// The call-centre queue through the real WebSocket signaling server with real peer connections:
/// three customers, one agent.
@Suite("Call queue through the real signaling server", .serialized)
struct CallQueueEndToEndTests {
    /// What one agent's application saw of the queue and its calls.
    final class QueueObserver: Sendable {
        let queueEvents = Mutex<[CallQueueEvent]>([])
        let states = Mutex<[String]>([])
        let problems = Mutex<[String]>([])

        func watch(_ agent: CallAgent) -> Task<Void, Never> {
            Task {
                for await event in agent.events {
                    if case let .problem(_, text) = event { problems.withLock { $0.append(text) } }
                    guard case let .call(output) = event else { continue }
                    switch output {
                    case let .queue(queueEvent): queueEvents.withLock { $0.append(queueEvent) }
                    case let .stateChanged(change): states.withLock { $0.append(change.state.rawValue) }
                    default: break
                    }
                }
            }
        }

        var positions: [Int] {
            queueEvents.withLock { $0.compactMap { if case let .positionChanged(r) = $0 { r.position } else { nil } } }
        }

        var picks: [CallQueuePick] {
            queueEvents.withLock { $0.compactMap { if case let .picked(pick) = $0 { pick } else { nil } } }
        }
    }

    @Test("three customers wait; positions update; one dequeues; the agent picks the rest in order and each call is accepted by itself")
    func threeCustomersOneAgent() async throws {
        let server = SignalingServer(host: "127.0.0.1", port: 0)
        let port = try await server.start()
        let url = "ws://127.0.0.1:\(port)/v1"
        let names = ["dave", "erin", "frank"]
        var customers: [CallAgent] = []
        for name in names { customers.append(try await EndToEnd.agent(name, url: url, configuration: EndToEnd.acceptingQueueAgents)) }
        let carol = try await EndToEnd.agent("carol", url: url)
        let seen = names.map { _ in QueueObserver() }
        let carolSeen = QueueObserver()
        var watchers = zip(customers, seen).map { $1.watch($0) }
        watchers.append(carolSeen.watch(carol))
        defer { watchers.forEach { $0.cancel() } }

        var requests: [String] = []
        for (index, customer) in customers.enumerated() {
            requests.append(try await customer.enqueue(
                queue: "support", attachedData: [AttachedData(dataName: "customer", dataValue: names[index])]))
            #expect(await EndToEnd.eventually { seen[index].positions == [index + 1] })
        }
        // erin gives up: frank moves to 2.
        try await customers[1].dequeue(requestId: requests[1])
        #expect(await EndToEnd.eventually { seen[2].positions == [3, 2] })

        for (index, customer) in [(0, customers[0]), (2, customers[2])] {
            try await carol.pick(queue: "support")
            #expect(await EndToEnd.eventually { carolSeen.picks.count == (index == 0 ? 1 : 2) })
            let pick = try #require(carolSeen.picks.last)
            #expect(pick.customer == names[index], "picked in queue order")
            #expect(pick.attachedData == [AttachedData(dataName: "customer", dataValue: names[index])])
            #expect(await EndToEnd.eventually {
                seen[index].queueEvents.withLock { $0.contains { if case .assigned = $0 { true } else { false } } }
            })
            _ = try await carol.call(to: pick.customer, media: .audioOnly)
            // Both ends in progress before carol hangs up: each end's state follows its own peer
            // connection's events, and carol's can come a moment after the customer's.
            #expect(await EndToEnd.eventually {
                seen[index].states.withLock { $0.last } == "IN_PROGRESS" && carolSeen.states.withLock { $0.last } == "IN_PROGRESS"
            })
            #expect(seen[index].states.withLock { $0 } == ["CONNECTING", "IN_PROGRESS"], "accepted without ringing")
            #expect(await customer.queueRequests.isEmpty)
            try await carol.hangUp()
            // Each end's ENDED reaches its watcher through its own event stream: wait for both.
            #expect(await EndToEnd.eventually {
                seen[index].states.withLock { $0.last } == "ENDED" && carolSeen.states.withLock { $0.last } == "ENDED"
            })
        }
        #expect(carolSeen.states.withLock { $0 } == ["CONNECTING", "IN_PROGRESS", "ENDED", "CONNECTING", "IN_PROGRESS", "ENDED"])
        #expect(seen[0].positions == [1])
        #expect(seen[2].positions == [3, 2, 1], "frank moved up as erin left and dave was picked")
        #expect(seen[1].states.withLock { $0 }.isEmpty, "erin, who left the queue, was never called")

        try await carol.pick(queue: "support")
        #expect(await EndToEnd.eventually {
            carolSeen.queueEvents.withLock { $0.last == .queueEmpty(queue: "support") }
        })
        for agent in customers + [carol] { await agent.stop() }
        await server.shutdown()
    }

    @Test("a customer whose signaling client keeps its own auto-accept rule on sends one accept, not two")
    func signalingClientAutoAcceptIsNotDoubled() async throws {
        let server = SignalingServer(host: "127.0.0.1", port: 0)
        let port = try await server.start()
        let url = "ws://127.0.0.1:\(port)/v1"
        let client = try await SignalingClient.connect(url: url, options: SignalingClientOptions(autoAcceptAssignedCalls: true))
        try await client.register(user: "dave", token: "")
        let dave = CallAgent(user: "dave", signaling: client, peerConfiguration: .loopback,
                             configuration: EndToEnd.acceptingQueueAgents)
        try await dave.start()
        let carol = try await EndToEnd.agent("carol", url: url)
        let daveSeen = QueueObserver(), carolSeen = QueueObserver()
        let watchers = [daveSeen.watch(dave), carolSeen.watch(carol)]
        defer { watchers.forEach { $0.cancel() } }
        try await dave.enqueue(queue: "support")
        #expect(await EndToEnd.eventually { daveSeen.positions == [1] })
        try await carol.pick(queue: "support")
        #expect(await EndToEnd.eventually {
            daveSeen.queueEvents.withLock { $0.contains { if case .assigned = $0 { true } else { false } } }
        })
        _ = try await carol.call(to: "dave", media: .audioOnly)
        #expect(await EndToEnd.eventually { daveSeen.states.withLock { $0.last } == "IN_PROGRESS" })
        #expect(daveSeen.states.withLock { $0 } == ["CONNECTING", "IN_PROGRESS"])
        let problems = daveSeen.problems.withLock { $0 } + carolSeen.problems.withLock { $0 }
        #expect(problems.isEmpty, "the server refused nothing: \(problems)")
        await dave.stop()
        await carol.stop()
        await server.shutdown()
    }
}
