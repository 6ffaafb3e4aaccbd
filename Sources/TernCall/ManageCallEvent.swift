public import TernSignaling
/// An in-call event received over the `manage-call` data channel.
public struct ManageCallEvent: Hashable, Sendable, CustomStringConvertible {
    /// What happened.
    public var type: ManageCallEventType
    /// The envelope's `manageCallEventData`, in order.
    public var data: [AttachedData]

    /// Creates an event.
    public init(type: ManageCallEventType, data: [AttachedData] = []) {
        self.type = type
        self.data = data
    }

    public var description: String { "\(type) \(data)" }
}
