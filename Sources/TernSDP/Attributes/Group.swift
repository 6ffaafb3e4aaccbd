/// `a=group:<semantics> <mid> ...` (RFC 5888 §5); `BUNDLE` semantics per RFC 9143 §7.1.
public struct Group: SDPAttributeValue {
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

    public init(attributeValue: Substring) throws(SDPValueError) {
        let parts = Tokens.fields(attributeValue)
        guard let first = parts.first else { throw SDPValueError("missing group semantics") }
        semantics = String(first)
        mids = parts.dropFirst().map(String.init)
    }

    public var attributeValue: String { ([semantics] + mids).joined(separator: " ") }
}
