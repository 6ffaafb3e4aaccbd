/// A typed view of one `a=` attribute value (RFC 8866 §5.13).
///
/// The description keeps every attribute as its raw text (so writing is lossless); types conforming to
/// this protocol parse that text on demand and render a canonical text when building descriptions.
public protocol SDPAttributeValue: Sendable, Equatable {
    /// The attribute name, e.g. `"rtpmap"`.
    static var attributeName: String { get }
    /// Parses the text after `a=<name>:`.
    init(attributeValue: Substring) throws(SDPValueError)
    /// The canonical text after `a=<name>:`.
    var attributeValue: String { get }
}

/// The parsers' byte-level entry point: every attribute type parses from the bytes the parser already
/// holds, and its public `init(attributeValue:)` forwards here.
protocol SDPBytesParsable: SDPAttributeValue {
    /// Parses the bytes after `a=<name>:`.
    init(bytes: SDPBytes) throws(SDPValueError)
    /// Checks the bytes against the grammar without keeping anything (what the parser does for every
    /// line); types whose values hold long strings or arrays scan instead of building.
    static func validate(bytes: SDPBytes) throws(SDPValueError)
}

extension SDPBytesParsable {
    static func validate(bytes: SDPBytes) throws(SDPValueError) { _ = try Self(bytes: bytes) }
}

/// Why an attribute or line value is malformed, in words a user can act on.
public struct SDPValueError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, e.g. "payload type is not a number".
    public let reason: String

    /// Creates an error with a human-readable reason.
    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}
