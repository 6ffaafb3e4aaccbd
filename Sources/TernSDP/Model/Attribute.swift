/// One `a=` line (RFC 8866 §5.13): `a=<name>` (a flag) or `a=<name>:<value>`.
///
/// Stored as the text after `a=`, exactly as written, so known and unknown attributes alike round-trip
/// byte for byte. A parsed attribute refers to its bytes inside the parsed description's text (one
/// shared string, no copy or index work per line); the writer copies those bytes straight out. Use
/// `parsed(as:)` or the typed accessors on `MediaDescription`/`SessionDescription` to read a value.
public struct Attribute: Sendable, Hashable {
    /// Holds the attribute's text at UTF-8 offsets `start..<end`: the whole description for a parsed
    /// attribute, or just `name[:value]` for one built in code.
    private let storage: String
    private let start: Int
    /// UTF-8 length of the name; a value, if any, follows the `:` after it.
    private let nameLength: Int
    private let end: Int

    /// Creates an attribute from its name and raw value.
    public init(name: String, value: String? = nil) {
        storage = value.map { name + ":" + $0 } ?? name
        start = 0
        nameLength = name.utf8.count
        end = storage.utf8.count
    }

    /// Creates an attribute from a typed value, rendered canonically.
    public init<T: SDPAttributeValue>(_ typed: T) {
        self.init(name: T.attributeName, value: typed.attributeValue)
    }

    /// The parser's form: `name[:value]` at UTF-8 offsets `range` of `description`.
    init(in description: String, range: Range<Int>, nameLength: Int) {
        storage = description
        start = range.lowerBound
        self.nameLength = nameLength
        end = range.upperBound
    }

    /// The attribute name (case as written).
    public var name: String {
        get { withText { Tokens.string($0.prefix(nameLength)) } }
        set { self = Attribute(name: newValue, value: value) }
    }

    /// The text after the first `:`; nil for a flag attribute such as `a=rtcp-mux`.
    public var value: String? {
        get { hasValue ? withText { Tokens.string($0.dropFirst(nameLength + 1)) } : nil }
        set { self = Attribute(name: name, value: newValue) }
    }

    /// True when the name is exactly `name`, without making a string.
    public func isNamed(_ name: String) -> Bool {
        guard nameLength == name.utf8.count else { return false }
        return withText { text in Tokens.withBytes(name) { text.prefix(nameLength).elementsEqual($0) } }
    }

    /// The typed value, or nil if the name differs or the value does not parse.
    public func parsed<T: SDPAttributeValue>(as type: T.Type) -> T? {
        guard isNamed(T.attributeName), hasValue else { return nil }
        guard let bytesParsable = T.self as? any SDPBytesParsable.Type else {
            return try? T(attributeValue: Substring(value ?? ""))
        }
        return withText { text in try? bytesParsable.init(bytes: text.dropFirst(nameLength + 1)) as? T }
    }

    /// The line text without the trailing CRLF, e.g. `a=mid:0`.
    public var line: String { SDPLine.attribute(self).text }

    public static func == (lhs: Attribute, rhs: Attribute) -> Bool {
        lhs.nameLength == rhs.nameLength && lhs.end - lhs.start == rhs.end - rhs.start
            && lhs.withText { left in rhs.withText { right in left.elementsEqual(right) } }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(nameLength)
        withText { hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: $0))) }
    }

    /// Runs `body` over the bytes after `a=` (for the writer and the accessors).
    @inline(__always)
    func withText<R>(_ body: (SDPBytes) -> R) -> R {
        if let result = storage.utf8.withContiguousStorageIfAvailable({ body($0[start..<end]) }) { return result }
        var native = storage
        return native.withUTF8 { body($0[start..<end]) }
    }

    private var hasValue: Bool { end - start > nameLength }
}
