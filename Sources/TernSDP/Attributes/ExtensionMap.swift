/// `a=extmap:<id>[/<direction>] <uri> [<extension attributes>]` (RFC 8285 §8).
public struct ExtensionMap: SDPAttributeValue {
    public static let attributeName = "extmap"
    /// Local identifier (1–14 one-byte, 1–255 two-byte, 4096–4351 legacy).
    public var id: Int
    /// Optional direction.
    public var direction: RTPDirection?
    /// Extension URI.
    public var uri: String
    /// Extension attributes as written, if any.
    public var extensionAttributes: String?

    /// Creates an extmap attribute.
    public init(id: Int, direction: RTPDirection? = nil, uri: String, extensionAttributes: String? = nil) {
        self.id = id
        self.direction = direction
        self.uri = uri
        self.extensionAttributes = extensionAttributes
    }

    public init(attributeValue: Substring) throws(SDPValueError) {
        let parts = Tokens.fields(attributeValue)
        guard parts.count >= 2 else { throw SDPValueError("expected `<id>[/<direction>] <uri>`") }
        let idText: Substring
        if let (i, d) = Tokens.splitOnce(parts[0], at: UInt8(ascii: "/")) {
            guard let dir = RTPDirection(rawValue: String(d)) else { throw SDPValueError("unknown direction `\(d)`") }
            idText = i
            direction = dir
        } else {
            idText = parts[0]
            direction = nil
        }
        guard let id = Tokens.int(idText), id <= 65535 else { throw SDPValueError("extension id is not a number") }
        self.id = id
        uri = String(parts[1])
        extensionAttributes = parts.count > 2 ? parts.dropFirst(2).joined(separator: " ") : nil
    }

    public var attributeValue: String {
        var out = direction.map { "\(id)/\($0.rawValue)" } ?? "\(id)"
        out += " \(uri)"
        if let extensionAttributes { out += " \(extensionAttributes)" }
        return out
    }
}
