/// One key/value pair an application attaches to an invite or a queue request
/// (`{"dataName":"k","dataValue":"v"}`).
///
/// Attached data is an ordered list: the server delivers it to the callee (or the
/// agent who picks a queue request) in the order the sender gave, and does not keep
/// it beyond the call or the request.
public struct AttachedData: Codable, Hashable, Sendable {
    /// The key.
    public var dataName: String
    /// The value.
    public var dataValue: String

    /// Creates one attached item.
    public init(dataName: String, dataValue: String) {
        self.dataName = dataName
        self.dataValue = dataValue
    }
}
