/// What the queue flow reports to the application (`CallOutput.queue`).
public enum CallQueueEvent: Hashable, Sendable, CustomStringConvertible {
    /// Customer: the request's position changed (first report right after `enqueue`).
    case positionChanged(CallQueueRequest)
    /// Customer: an agent picked the request; its call will be accepted automatically.
    case assigned(CallQueueRequest)
    /// Customer: the request left the queue without being picked — dequeued here, refused by
    /// the server, or dropped with the signaling connection (the server forgets the requests of
    /// a closed connection; enqueue again once `running`).
    case removed(CallQueueRequest, reason: String)
    /// Agent: the picked request; call `pick.customer` to serve it.
    case picked(CallQueuePick)
    /// Agent: nobody was waiting in the queue.
    case queueEmpty(queue: String)

    public var description: String {
        switch self {
        case let .positionChanged(request): "queue position \(request)"
        case let .assigned(request): "queue request \(request)"
        case let .removed(request, reason): "queue request \(request) removed: \(reason)"
        case let .picked(pick): "picked \(pick)"
        case let .queueEmpty(queue): "queue \(queue) empty"
        }
    }
}
