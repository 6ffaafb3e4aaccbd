/// `a=ssrc-group:<semantics> <ssrc> ...` (RFC 5576 §4.2), e.g. `FID` (RTX, RFC 4588), `SIM`, `FEC-FR`.
public struct SSRCGroup: SDPAttributeValue, SDPBytesParsable {
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
        self = try Tokens.withBytes(attributeValue) { bytes throws(SDPValueError) in try Self(bytes: bytes) }
    }

    init(bytes: SDPBytes) throws(SDPValueError) {
        var list: [UInt32] = []
        semantics = Tokens.string(try Self.scan(bytes) { list.append($0) })
        ssrcs = list
    }

    static func validate(bytes: SDPBytes) throws(SDPValueError) { _ = try scan(bytes) { _ in } }

    /// Checks the grammar, hands each SSRC to `body` and returns the semantics.
    private static func scan(_ bytes: SDPBytes, _ body: (UInt32) -> Void) throws(SDPValueError) -> SDPBytes {
        var fields = FieldScanner(bytes)
        guard let first = fields.next() else { throw SDPValueError("missing ssrc-group semantics") }
        while let part = fields.next() {
            guard let ssrc = Tokens.number(part, as: UInt32.self) else {
                throw SDPValueError("SSRC `\(Tokens.string(part))` is not a 32-bit number")
            }
            body(ssrc)
        }
        return first
    }

    public var attributeValue: String { ([semantics] + ssrcs.map(String.init)).joined(separator: " ") }
}
