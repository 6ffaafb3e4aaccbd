public import TernSignaling
/// What an agent gets when it picks the next request of a queue: who to call and the
/// customer's attached data. The agent then places the call with `call(to: customer, …)`;
/// the customer's client accepts it by itself.
public struct CallQueuePick: Hashable, Sendable, CustomStringConvertible {
    public let queue: String
    public let requestId: String
    /// The user to call.
    public let customer: String
    /// The customer's attached data, as enqueued.
    public let attachedData: [AttachedData]

    public init(queue: String, requestId: String, customer: String, attachedData: [AttachedData]) {
        self.queue = queue
        self.requestId = requestId
        self.customer = customer
        self.attachedData = attachedData
    }

    public var description: String { "\(queue)/\(requestId) from \(customer)" }
}
