public import TernSignaling
/// One of this client's requests waiting in a call-centre queue (Docs/SIGNALING.md, "Queues"):
/// the customer side of the flow. The server tells its position until an agent picks it; the
/// picking agent then calls, and this client accepts that call by itself.
public struct CallQueueRequest: Hashable, Sendable, CustomStringConvertible {
    /// The queue's name.
    public let queue: String
    /// The request's id, unique among this user's waiting requests in that queue.
    public let requestId: String
    /// What the agent sees when it picks the request (ordered, repeats kept).
    public let attachedData: [AttachedData]
    /// 1-based place in the queue, once the server told it.
    public internal(set) var position: Int?
    /// The agent who picked the request, once picked: its call is accepted automatically.
    public internal(set) var agent: String?

    public init(queue: String, requestId: String, attachedData: [AttachedData] = [], position: Int? = nil,
                agent: String? = nil) {
        self.queue = queue
        self.requestId = requestId
        self.attachedData = attachedData
        self.position = position
        self.agent = agent
    }

    public var description: String {
        var text = "\(queue)/\(requestId)"
        if let position { text += " #\(position)" }
        if let agent { text += " picked by \(agent)" }
        return text
    }
}
