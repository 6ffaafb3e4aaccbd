import Testing
import TernCall
import TernSignaling
import TernCore

/// The queue flow in the call core (sans-I/O): the customer's requests, positions and picks, and
/// the picking agent's call accepted without ringing.
@Suite("Call queue flow in the call core")
struct CallQueueTests {
    private let data = [AttachedData(dataName: "processName", dataValue: "CustOnboarding"), AttachedData(dataName: "lang", dataValue: "de")]

    private func running(acceptsCallsFromQueueAgents: Bool = true) throws -> CallClient {
        var configuration = CallConfiguration()
        configuration.acceptsCallsFromQueueAgents = acceptsCallsFromQueueAgents
        var client = CallClient(configuration: configuration)
        _ = try client.start(now: .zero)
        _ = client.signalingConnected(now: .zero)
        return client
    }

    private func states(_ out: [CallOutput]) -> [String] {
        out.compactMap { if case .stateChanged(let change) = $0 { change.state.rawValue } else { nil } }
    }

    @Test("acceptsCallsFromQueueAgents on: enqueue → positions → assigned → the agent's invite is accepted at once: CONNECTING, no RINGING")
    func pickedRequestsCallIsAcceptedWithoutRinging() throws {
        var client = try running()
        #expect(try client.enqueue(queue: "kyc", requestId: "r1", attachedData: data, now: .zero)
            == [.sendQueue(.enqueue(queue: "kyc", requestId: "r1", attachedData: data))])
        let second = client.receive(.position(queue: "kyc", requestId: "r1", position: 2), now: .zero)
        #expect(second == [.queue(.positionChanged(CallQueueRequest(queue: "kyc", requestId: "r1", attachedData: data,
                                                                     position: 2)))])
        _ = client.receive(.position(queue: "kyc", requestId: "r1", position: 1), now: .zero)
        #expect(client.queueRequests.first?.position == 1)
        let assigned = client.receive(CallQueueSignal.assigned(queue: "kyc", requestId: "r1", agent: "carol"), now: .zero)
        #expect(assigned == [.queue(.assigned(CallQueueRequest(queue: "kyc", requestId: "r1", attachedData: data,
                                                               position: 1, agent: "carol")))])

        let invite = Invite(callId: "q1", from: "carol", to: "dave", media: .audioVideo)
        let out = client.receive(.invite(invite), now: .zero)
        #expect(out.first == .incomingCall(invite, txCode: "r1"), "the app sees the call, tagged with its request id")
        #expect(out.contains(.send(.accept(callId: "q1"))))
        #expect(!out.contains(.send(.ringing(callId: "q1"))))
        #expect(states(out) == ["CONNECTING"])
        #expect(out.last == .action(.awaitOffer(callId: "q1", media: .audioVideo)))
        #expect(client.queueRequests.isEmpty)
        #expect(client.isOnCall)
    }

    @Test("by default the picking agent's call rings like any other, tagged with the request id")
    func agentsCallRingsByDefault() throws {
        #expect(CallConfiguration().acceptsCallsFromQueueAgents == false)
        var client = try running(acceptsCallsFromQueueAgents: false)
        _ = try client.enqueue(queue: "kyc", requestId: "r1", now: .zero)
        _ = client.receive(CallQueueSignal.assigned(queue: "kyc", requestId: "r1", agent: "carol"), now: .zero)
        let invite = Invite(callId: "q1", from: "carol", to: "dave", media: .audioOnly)
        let out = client.receive(.invite(invite), now: .zero)
        #expect(out.first == .incomingCall(invite, txCode: "r1"))
        #expect(states(out) == ["RINGING"])
        #expect(!out.contains(.send(.accept(callId: "q1"))))
        #expect(client.queueRequests.isEmpty, "the request is answered by this call")
    }

    @Test("an invite from anyone but the picking agent rings as usual")
    func otherCallersStillRing() throws {
        var client = try running()
        _ = try client.enqueue(queue: "kyc", requestId: "r1", now: .zero)
        _ = client.receive(CallQueueSignal.assigned(queue: "kyc", requestId: "r1", agent: "carol"), now: .zero)
        let out = client.receive(.invite(Invite(callId: "x", from: "mallory", to: "dave", media: .audioOnly)), now: .zero)
        #expect(states(out) == ["RINGING"])
        #expect(!out.contains(.send(.accept(callId: "x"))))
        #expect(client.queueRequests.count == 1, "the request still waits for carol's call")
    }

    @Test("dequeue tells the server while waiting, not once picked; unknown and duplicate ids are refused")
    func dequeueAndBadRequests() throws {
        var client = try running()
        _ = try client.enqueue(queue: "kyc", requestId: "r1", now: .zero)
        _ = try client.enqueue(queue: "kyc", requestId: "r2", now: .zero)
        #expect(throws: CallError.invalidQueueRequest("request r1 is already waiting")) {
            try client.enqueue(queue: "other", requestId: "r1", now: .zero)
        }
        #expect(throws: CallError.invalidQueueRequest("the queue name must be 1–128 bytes")) {
            try client.enqueue(queue: "", requestId: "r3", now: .zero)
        }
        let out = try client.dequeue(requestId: "r1", now: .zero)
        #expect(out == [.sendQueue(.dequeue(queue: "kyc", requestId: "r1")),
                        .queue(.removed(CallQueueRequest(queue: "kyc", requestId: "r1"), reason: "dequeued"))])
        _ = client.receive(CallQueueSignal.assigned(queue: "kyc", requestId: "r2", agent: "carol"), now: .zero)
        let picked = try client.dequeue(requestId: "r2", now: .zero)
        #expect(picked.count == 1, "nothing to send: the server already handed the request to carol")
        #expect(throws: CallError.noSuchQueueRequest(requestId: "r2")) { try client.dequeue(requestId: "r2", now: .zero) }
        // Given up, carol's call now rings like any other.
        let invite = client.receive(.invite(Invite(callId: "q2", from: "carol", to: "dave", media: .audioOnly)), now: .zero)
        #expect(states(invite) == ["RINGING"])
    }

    @Test("the server's refusal and a lost connection remove requests, with the reason")
    func requestsGoAwayWithReason() throws {
        var client = try running()
        _ = try client.enqueue(queue: "kyc", requestId: "r1", now: .zero)
        _ = try client.enqueue(queue: "kyc", requestId: "r2", now: .zero)
        let refused = client.receive(.refused(requestId: "r1", message: "duplicateRequest: r1 waits"), now: .zero)
        #expect(refused == [.queue(.removed(CallQueueRequest(queue: "kyc", requestId: "r1"),
                                            reason: "refused by the server: duplicateRequest: r1 waits"))])
        let lost = client.signalingLost(now: .zero)
        #expect(lost.contains(.queue(.removed(CallQueueRequest(queue: "kyc", requestId: "r2"),
                                              reason: "signaling connection lost"))))
        #expect(client.queueRequests.isEmpty)
        #expect(throws: CallError.clientNotRunning(.paused)) {
            try client.enqueue(queue: "kyc", requestId: "r3", now: .zero)
        }
    }

    @Test("the agent's pick is sent, and the answer (picked or empty) reported")
    func agentPicks() throws {
        var client = try running()
        #expect(try client.pick(queue: "kyc", now: .zero) == [.sendQueue(.pick(queue: "kyc"))])
        let pick = CallQueuePick(queue: "kyc", requestId: "r1", customer: "dave", attachedData: data)
        #expect(client.receive(.picked(pick), now: .zero) == [.queue(.picked(pick))])
        #expect(client.receive(.empty(queue: "kyc"), now: .zero) == [.queue(.queueEmpty(queue: "kyc"))])
    }
}
