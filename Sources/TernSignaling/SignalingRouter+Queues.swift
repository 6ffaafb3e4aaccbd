extension SignalingRouter {
    /// `enqueue`: appends a request and tells the customer its position.
    mutating func enqueue(queue: String, requestId: String, attachedData: [AttachedData],
                          from connection: SignalingConnectionID, user: String, into out: inout [SignalingRouterAction])
    {
        guard validIdentifier(queue) else { return refuse(connection, identifierError("queue"), into: &out) }
        guard validIdentifier(requestId) else {
            return refuse(connection, identifierError("requestId", requestId: nil), into: &out)
        }
        var entries = queues[ExactKey(queue), default: []]
        guard !entries.contains(where: { $0.requestId == requestId }) else {
            return refuse(connection, SignalingError(
                code: .duplicateRequest, message: "request id already waits in queue \"\(queue)\"",
                requestId: requestId), into: &out)
        }
        var mine = 0
        for waiting in queues.values { mine += waiting.count(where: { $0.customer == connection }) }
        guard entries.count < limits.maxQueueLength, mine < limits.maxRequestsPerConnection else {
            return refuse(connection, SignalingError(
                code: .limitExceeded,
                message: entries.count >= limits.maxQueueLength
                    ? "queue \"\(queue)\" is full (\(limits.maxQueueLength) requests)"
                    : "this connection already has \(mine) requests waiting",
                requestId: requestId), into: &out)
        }
        accepted(connection)
        entries.append(SignalingQueueEntry(
            requestId: requestId, customer: connection, customerUser: user, attachedData: attachedData))
        queues[ExactKey(queue)] = entries
        send(.queuePosition(queue: queue, requestId: requestId, position: entries.count), to: connection, into: &out)
    }

    /// `dequeue`: the owner takes its request out; those behind it move up.
    mutating func dequeue(queue: String, requestId: String, from connection: SignalingConnectionID,
                          into out: inout [SignalingRouterAction])
    {
        guard let index = queues[ExactKey(queue)]?.firstIndex(where: { $0.requestId == requestId && $0.customer == connection })
        else {
            return refuse(connection, SignalingError(
                code: .unknownRequest, message: "no request of this connection waits in queue \"\(queue)\"",
                requestId: requestId), into: &out)
        }
        accepted(connection)
        removeEntry(at: index, from: queue, into: &out)
        send(.dequeued(queue: queue, requestId: requestId), to: connection, into: &out)
    }

    /// `pick` (agents only: it reads the customer's attached data): the agent gets the head of the queue, the customer learns who picked it,
    /// everyone behind moves up.
    mutating func pick(queue: String, agent: SignalingConnectionID, agentUser: String,
                       into out: inout [SignalingRouterAction])
    {
        guard connections[agent]?.role == .agent else {
            return refuse(agent, SignalingError(
                code: .forbidden, message: "pick needs a token with role \"agent\" (this one is \"user\")"),
                into: &out)
        }
        guard let head = queues[ExactKey(queue)]?.first else {
            return refuse(agent, SignalingError(
                code: .queueEmpty, message: "nobody waits in queue \"\(queue)\""), into: &out)
        }
        accepted(agent)
        send(.picked(queue: queue, requestId: head.requestId, customer: head.customerUser,
                     attachedData: head.attachedData), to: agent, into: &out)
        send(.assigned(queue: queue, requestId: head.requestId, agent: agentUser), to: head.customer, into: &out)
        removeEntry(at: 0, from: queue, into: &out)
    }

    /// Removes one entry and sends the new position to every entry behind it.
    mutating func removeEntry(at index: Int, from queue: String, into out: inout [SignalingRouterAction]) {
        guard var entries = queues[ExactKey(queue)], entries.indices.contains(index) else { return }
        entries.remove(at: index)
        queues[ExactKey(queue)] = entries.isEmpty ? nil : entries
        for position in index..<entries.count {
            let entry = entries[position]
            send(.queuePosition(queue: queue, requestId: entry.requestId, position: position + 1),
                 to: entry.customer, into: &out)
        }
    }

    /// A connection went away: its requests leave every queue.
    mutating func requestsLost(_ connection: SignalingConnectionID, into out: inout [SignalingRouterAction]) {
        for key in queues.keys.sorted() {
            while let index = queues[key]?.firstIndex(where: { $0.customer == connection }) {
                removeEntry(at: index, from: key.text, into: &out)
            }
        }
    }
}
