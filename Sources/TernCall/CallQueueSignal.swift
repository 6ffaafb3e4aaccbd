public import TernSignaling
/// The queue messages of signaling protocol v1 (Docs/SIGNALING.md, "Queues") that the call
/// core sends and consumes; the I/O driver bridges them to the wire types of `TernSignaling`.
public enum CallQueueSignal: Hashable, Sendable, CustomStringConvertible {
    /// Customer → server: wait in `queue`.
    case enqueue(queue: String, requestId: String, attachedData: [AttachedData])
    /// Customer → server: stop waiting.
    case dequeue(queue: String, requestId: String)
    /// Agent → server: take the request at the head of `queue`.
    case pick(queue: String)
    /// Server → customer: the request's 1-based position (on enqueue and whenever it changes).
    case position(queue: String, requestId: String, position: Int)
    /// Server → agent: the request it picked.
    case picked(CallQueuePick)
    /// Server → customer: `agent` picked the request and will call.
    case assigned(queue: String, requestId: String, agent: String)
    /// Server → agent: `pick` found nobody waiting in `queue`.
    case empty(queue: String)
    /// Server → customer: a request was refused (e.g. its id already waits in that queue).
    case refused(requestId: String, message: String)

    public var description: String {
        switch self {
        case let .enqueue(queue, id, data): "enqueue \(queue)/\(id) \(data)"
        case let .dequeue(queue, id): "dequeue \(queue)/\(id)"
        case let .pick(queue): "pick \(queue)"
        case let .position(queue, id, position): "position \(queue)/\(id) #\(position)"
        case let .picked(pick): "picked \(pick)"
        case let .assigned(queue, id, agent): "assigned \(queue)/\(id) to \(agent)"
        case let .empty(queue): "queue \(queue) empty"
        case let .refused(id, message): "request \(id) refused: \(message)"
        }
    }
}
