/// `a=ssrc-group:<semantics> <ssrc> ...` (RFC 5576 §4.2), e.g. `FID` (RTX, RFC 4588), `SIM`, `FEC-FR`.
public struct SSRCGroup: SDPAttributeValue {
    public static let attributeName = "ssrc-group"
    /// Semantics token.
    public var semantics: String
    /// SSRCs in order (for FID: primary then RTX).
    public var ssrcs: [UInt32]

    /// Creates an ssrc-group attribute.
    public init(semantics: String, ssrcs: [UInt32]) {
        self.semantics = semantics
        self.ssrcs = ssrcs
    }

    public init(attributeValue: Substring) throws(SDPValueError) {
        let parts = Tokens.fields(attributeValue)
        guard let first = parts.first else { throw SDPValueError("missing ssrc-group semantics") }
        semantics = String(first)
        var list: [UInt32] = []
        for part in parts.dropFirst() {
            guard let ssrc = Tokens.number(part, as: UInt32.self) else { throw SDPValueError("SSRC `\(part)` is not a 32-bit number") }
            list.append(ssrc)
        }
        ssrcs = list
    }

    public var attributeValue: String { ([semantics] + ssrcs.map(String.init)).joined(separator: " ") }
}
