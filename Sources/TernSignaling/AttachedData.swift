/// One key/value pair an application attaches to an invite, a queue request or a manage-call
/// envelope (`manageCallEventData`)
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

extension AttachedData: CustomStringConvertible {
    /// `name=value`.
    public var description: String { "\(dataName)=\(dataValue)" }
}

extension Array where Element == AttachedData {
    /// The value of the first item named `name`, if any.
    public func value(named name: String) -> String? {
        first(where: { $0.dataName == name })?.dataValue
    }
}
