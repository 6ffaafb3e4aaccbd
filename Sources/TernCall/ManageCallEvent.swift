/// An in-call event received over the `manage-call` data channel.
public struct ManageCallEvent: Hashable, Sendable, CustomStringConvertible {
    /// What happened.
    public var type: ManageCallEventType
    /// The envelope's `manageCallEventData`, in order.
    public var data: [CallDataItem]

    /// Creates an event.
    public init(type: ManageCallEventType, data: [CallDataItem] = []) {
        self.type = type
        self.data = data
    }

    public var description: String { "\(type) \(data)" }
}
