public import TernSignaling
public import TernCore

/// The call-centre queue flow (Docs/SIGNALING.md, "Queues"): a customer enqueues a request with
/// attached data and follows its position; an agent picks the next request, sees the data and
/// calls the customer, whose client accepts that call by itself (no ringing).
extension CallClient {
    /// Customer: waits in `queue`; the first position arrives as `.queue(.positionChanged)`.
    /// - Parameters:
    ///   - queue: the queue's name (1–128 bytes).
    ///   - requestId: unique among this client's waiting requests (1–128 bytes).
    ///   - attachedData: name/value pairs the agent who picks the request sees.
    ///   - now: the current time (the core reads no clock).
    public mutating func enqueue(queue: String, requestId: String, attachedData: [AttachedData] = [],
                                 now: Instant) throws(CallError) -> [CallOutput] {
        guard state == .running else { throw .clientNotRunning(state) }
        guard (1...128).contains(queue.utf8.count) else { throw .invalidQueueRequest("the queue name must be 1–128 bytes") }
        guard (1...128).contains(requestId.utf8.count) else {
            throw .invalidQueueRequest("the request id must be 1–128 bytes")
        }
        guard !queueRequests.contains(where: { $0.requestId == requestId }) else {
            throw .invalidQueueRequest("request \(requestId) is already waiting")
        }
        queueRequests.append(CallQueueRequest(queue: queue, requestId: requestId, attachedData: attachedData))
        return [.sendQueue(.enqueue(queue: queue, requestId: requestId, attachedData: attachedData))]
    }

    /// Customer: stops waiting. A request an agent already picked can be given up too: its call
    /// will then ring like any other instead of being accepted by itself.
    public mutating func dequeue(requestId: String, now: Instant) throws(CallError) -> [CallOutput] {
        guard let index = queueRequests.firstIndex(where: { $0.requestId == requestId }) else {
            throw .noSuchQueueRequest(requestId: requestId)
        }
        let request = queueRequests.remove(at: index)
        var out: [CallOutput] = []
        // Once picked the server has forgotten the request: nothing to tell it.
        if request.agent == nil { out.append(.sendQueue(.dequeue(queue: request.queue, requestId: requestId))) }
        out.append(.queue(.removed(request, reason: "dequeued")))
        return out
    }

    /// Agent: takes the request at the head of `queue`; the answer is `.queue(.picked)` or
    /// `.queue(.queueEmpty)`.
    public mutating func pick(queue: String, now: Instant) throws(CallError) -> [CallOutput] {
        guard state == .running else { throw .clientNotRunning(state) }
        guard (1...128).contains(queue.utf8.count) else { throw .invalidQueueRequest("the queue name must be 1–128 bytes") }
        return [.sendQueue(.pick(queue: queue))]
    }

    /// A queue message from the signaling connection.
    public mutating func receive(_ signal: CallQueueSignal, now: Instant) -> [CallOutput] {
        guard state == .running else { return [] }
        switch signal {
        case let .position(queue, requestId, position):
            guard let index = requestIndex(queue: queue, requestId: requestId) else { return [] }
            queueRequests[index].position = position
            return [.queue(.positionChanged(queueRequests[index]))]
        case let .assigned(queue, requestId, agent):
            guard let index = requestIndex(queue: queue, requestId: requestId) else { return [] }
            queueRequests[index].agent = agent
            return [.queue(.assigned(queueRequests[index]))]
        case let .refused(requestId, message):
            guard let index = queueRequests.firstIndex(where: { $0.requestId == requestId && $0.agent == nil }) else {
                return []
            }
            return [.queue(.removed(queueRequests.remove(at: index), reason: "refused by the server: \(message)"))]
        case let .picked(pick):
            return [.queue(.picked(pick))]
        case let .empty(queue):
            return [.queue(.queueEmpty(queue: queue))]
        case .enqueue, .dequeue, .pick:
            return []  // client → server only
        }
    }

    /// The picked request whose agent sent `invite`, taken off the list: its call is accepted
    /// without ringing.
    mutating func takeAssignedRequest(for invite: Invite) -> CallQueueRequest? {
        guard let from = invite.from, !from.isEmpty,
              let index = queueRequests.firstIndex(where: { $0.agent == from }) else { return nil }
        return queueRequests.remove(at: index)
    }

    /// Every request is gone with the connection that enqueued it (the server drops them).
    mutating func dropQueueRequests(reason: String, _ out: inout [CallOutput]) {
        for request in queueRequests { out.append(.queue(.removed(request, reason: reason))) }
        queueRequests = []
    }

    private func requestIndex(queue: String, requestId: String) -> Int? {
        queueRequests.firstIndex { $0.queue == queue && $0.requestId == requestId }
    }
}
