import Testing
import TernSignaling

@Suite("Router: queues (call-centre flow)")
struct SignalingRouterQueueTests {
    static let data = [AttachedData(dataName: "order", dataValue: "42")]

    @Test("three customers, one dequeues, the agent picks the rest in order; positions follow")
    func threeCustomersOneAgent() {
        var h = RouterHarness()
        h.register(1, "dave")
        h.register(2, "erin")
        h.register(3, "frank")
        h.register(9, "carol")
        #expect(h.send(1, .enqueue(queue: "support", requestId: "r1", attachedData: Self.data))
            == [send(1, .queuePosition(queue: "support", requestId: "r1", position: 1))])
        #expect(h.send(2, .enqueue(queue: "support", requestId: "r2", attachedData: []))
            == [send(2, .queuePosition(queue: "support", requestId: "r2", position: 2))])
        #expect(h.send(3, .enqueue(queue: "support", requestId: "r3", attachedData: []))
            == [send(3, .queuePosition(queue: "support", requestId: "r3", position: 3))])

        // erin leaves: frank moves up, dave's position does not change so he hears nothing.
        #expect(h.send(2, .dequeue(queue: "support", requestId: "r2")) == [
            send(3, .queuePosition(queue: "support", requestId: "r3", position: 2)),
            send(2, .dequeued(queue: "support", requestId: "r2")),
        ])

        #expect(h.send(9, .pick(queue: "support")) == [
            send(9, .picked(queue: "support", requestId: "r1", customer: "dave", attachedData: Self.data)),
            send(1, .assigned(queue: "support", requestId: "r1", agent: "carol")),
            send(3, .queuePosition(queue: "support", requestId: "r3", position: 1)),
        ])
        #expect(h.send(9, .pick(queue: "support")) == [
            send(9, .picked(queue: "support", requestId: "r3", customer: "frank", attachedData: [])),
            send(3, .assigned(queue: "support", requestId: "r3", agent: "carol")),
        ])
        #expect(errorCodes(h.send(9, .pick(queue: "support")), to: 9) == [.queueEmpty])

        // The agent then invites the customer as in any call.
        var expected = Invite(callId: "q1", to: "dave")
        expected.from = "carol"
        expected.timeoutMs = 30_000
        expected.rejectPolicy = .all
        #expect(h.send(9, .invite(Invite(callId: "q1", to: "dave"))) == [send(1, .invite(expected))])
    }

    @Test("only the owner can dequeue; a duplicate request id is refused; a customer leaving frees its place")
    func ownershipAndDisconnect() {
        var h = RouterHarness()
        h.register(1, "dave")
        h.register(2, "erin")
        _ = h.send(1, .enqueue(queue: "support", requestId: "r1", attachedData: []))
        _ = h.send(2, .enqueue(queue: "support", requestId: "r2", attachedData: []))
        #expect(errorCodes(h.send(2, .dequeue(queue: "support", requestId: "r1")), to: 2) == [.unknownRequest])
        #expect(errorCodes(h.send(2, .enqueue(queue: "support", requestId: "r1", attachedData: [])), to: 2) == [.duplicateRequest])
        #expect(h.close(1) == [send(2, .queuePosition(queue: "support", requestId: "r2", position: 1))])
    }

    @Test("queue length limit")
    func queueFull() {
        var limits = SignalingLimits()
        limits.maxQueueLength = 1
        var h = RouterHarness(limits: limits)
        h.register(1, "dave")
        h.register(2, "erin")
        _ = h.send(1, .enqueue(queue: "support", requestId: "r1", attachedData: []))
        #expect(errorCodes(h.send(2, .enqueue(queue: "support", requestId: "r2", attachedData: [])), to: 2) == [.limitExceeded])
    }
}
