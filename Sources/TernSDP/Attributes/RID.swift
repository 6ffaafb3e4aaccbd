/// `a=rid:<rid-id> <send|recv> [<restrictions>]` (RFC 8851 §10): one RTP stream identifier for simulcast.
public struct RID: SDPAttributeValue, SDPBytesParsable {
    public static let attributeName = "rid"
    /// The rid-id (alphanumerics, `-`, `_`).
    public var id: String
    /// `send` or `recv`, as written.
    public var direction: String
    /// Restrictions such as `pt=96;max-width=1280`, as written.
    public var restrictions: String?

    /// Creates a rid attribute.
    public init(id: String, direction: String, restrictions: String? = nil) {
        self.id = id
        self.direction = direction
        self.restrictions = restrictions
    }

    public init(attributeValue: Substring) throws(SDPValueError) {
        self = try Tokens.withBytes(attributeValue) { bytes throws(SDPValueError) in try Self(bytes: bytes) }
    }

    init(bytes: SDPBytes) throws(SDPValueError) {
        var fields = FieldScanner(bytes)
        guard let idField = fields.next(), let dir = fields.next() else {
            throw SDPValueError("expected `<rid-id> <send|recv> [<restrictions>]`")
        }
        guard Tokens.equalsIgnoringCase(dir, "send") || Tokens.equalsIgnoringCase(dir, "recv") else {
            throw SDPValueError("rid direction must be send or recv")
        }
        id = Tokens.string(idField)
        direction = Tokens.string(dir)
        let rest = fields.rest
        restrictions = rest.isEmpty ? nil : Tokens.string(rest)
    }

    public var attributeValue: String { ([id, direction] + (restrictions.map { [$0] } ?? [])).joined(separator: " ") }
}
