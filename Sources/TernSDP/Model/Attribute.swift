/// One `a=` line (RFC 8866 §5.13): `a=<name>` (a flag) or `a=<name>:<value>`.
///
/// The value is stored verbatim so that unknown and known attributes alike round-trip byte for byte.
/// Use `parsed(as:)` or the typed accessors on `MediaDescription`/`SessionDescription` to read it.
public struct Attribute: Sendable, Equatable, Hashable {
    /// The attribute name (case as written).
    public var name: String
    /// The text after the first `:`; nil for a flag attribute such as `a=rtcp-mux`.
    public var value: String?

    /// Creates an attribute from its name and raw value.
    public init(name: String, value: String? = nil) {
        self.name = name
        self.value = value
    }

    /// Creates an attribute from a typed value, rendered canonically.
    public init<T: SDPAttributeValue>(_ typed: T) {
        self.name = T.attributeName
        self.value = typed.attributeValue
    }

    /// The typed value, or nil if the name differs or the value does not parse.
    public func parsed<T: SDPAttributeValue>(as type: T.Type) -> T? {
        guard name == T.attributeName, let value else { return nil }
        return try? T(attributeValue: Substring(value))
    }

    /// The line text without the trailing CRLF, e.g. `a=mid:0`.
    public var line: String {
        if let value { return "a=\(name):\(value)" }
        return "a=\(name)"
    }
}
