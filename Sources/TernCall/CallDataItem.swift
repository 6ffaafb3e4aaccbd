/// One `{dataName, dataValue}` pair: an item of an invite's `attachedData` list or of a
/// manage-call envelope's `manageCallEventData` list. Lists of them are ordered and may
/// repeat a name; order is kept on the wire and in every output.
public struct CallDataItem: Hashable, Sendable, CustomStringConvertible {
    /// The `dataName` field.
    public var name: String
    /// The `dataValue` field.
    public var value: String

    /// Creates a pair.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    public var description: String { "\(name)=\(value)" }
}

extension Array where Element == CallDataItem {
    /// The value of the first item named `name`, if any.
    public func value(named name: String) -> String? {
        first(where: { $0.name == name })?.value
    }
}
