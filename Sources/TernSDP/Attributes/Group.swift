/// `a=group:<semantics> <mid> ...` (RFC 5888 §5); `BUNDLE` semantics per RFC 9143 §7.1.
public struct Group: SDPAttributeValue, SDPBytesParsable {
    public static let attributeName = "group"
    /// Semantics token, e.g. `BUNDLE`, `LS`.
    public var semantics: String
    /// Identification tags in order; for BUNDLE the first is the tagged m= section.
    public var mids: [String]

    /// Creates a group attribute.
    public init(semantics: String, mids: [String]) {
        self.semantics = semantics
        self.mids = mids
    }

    static func validate(bytes: SDPBytes) throws(SDPValueError) {
        var fields = FieldScanner(bytes)
        guard fields.next() != nil else { throw SDPValueError("missing group semantics") }
    }

    public init(attributeValue: Substring) throws(SDPValueError) {
        self = try Tokens.withBytes(attributeValue) { bytes throws(SDPValueError) in try Self(bytes: bytes) }
    }

    init(bytes: SDPBytes) throws(SDPValueError) {
        var fields = FieldScanner(bytes)
        guard let first = fields.next() else { throw SDPValueError("missing group semantics") }
        semantics = Tokens.string(first)
        var mids: [String] = []
        while let mid = fields.next() { mids.append(Tokens.string(mid)) }
        self.mids = mids
    }

    public var attributeValue: String { ([semantics] + mids).joined(separator: " ") }
}
