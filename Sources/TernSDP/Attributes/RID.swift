/// `a=rid:<rid-id> <send|recv> [<restrictions>]` (RFC 8851 §10): one RTP stream identifier for simulcast.
public struct RID: SDPAttributeValue {
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
        let parts = Tokens.fields(attributeValue)
        guard parts.count >= 2 else { throw SDPValueError("expected `<rid-id> <send|recv> [<restrictions>]`") }
        let dir = parts[1].lowercased()
        guard dir == "send" || dir == "recv" else { throw SDPValueError("rid direction must be send or recv") }
        id = String(parts[0])
        direction = String(parts[1])
        restrictions = parts.count > 2 ? parts.dropFirst(2).joined(separator: " ") : nil
    }

    public var attributeValue: String { ([id, direction] + (restrictions.map { [$0] } ?? [])).joined(separator: " ") }
}
