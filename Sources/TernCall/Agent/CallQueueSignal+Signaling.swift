import TernSignaling

/// The bridge between the call core's queue signals and signaling protocol v1 messages.
extension CallQueueSignal {
    /// The protocol v1 message for a client → server signal; nil for the server's.
    var signalingMessage: SignalingMessage? {
        switch self {
        case let .enqueue(queue, requestId, data):
            .enqueue(queue: queue, requestId: requestId,
                     attachedData: data)
        case let .dequeue(queue, requestId): .dequeue(queue: queue, requestId: requestId)
        case let .pick(queue): .pick(queue: queue)
        case .position, .picked, .assigned, .empty, .refused: nil
        }
    }

    /// The queue signal a server message carries, if it is one. `queueEmpty` errors do not name
    /// their queue: `pendingPick` is the queue of the oldest unanswered `pick`.
    init?(_ message: SignalingMessage, pendingPick: String?) {
        switch message {
        case let .queuePosition(queue, requestId, position):
            self = .position(queue: queue, requestId: requestId, position: position)
        case let .picked(queue, requestId, customer, data):
            self = .picked(CallQueuePick(queue: queue, requestId: requestId, customer: customer,
                                         attachedData: data))
        case let .assigned(queue, requestId, agent):
            self = .assigned(queue: queue, requestId: requestId, agent: agent)
        case let .error(error) where error.code == .queueEmpty:
            guard let queue = pendingPick else { return nil }
            self = .empty(queue: queue)
        case let .error(error):
            guard let requestId = error.requestId else { return nil }
            self = .refused(requestId: requestId, message: error.description)
        default:
            return nil
        }
    }
}
