/// `a=extmap:<id>[/<direction>] <uri> [<extension attributes>]` (RFC 8285 §8).
public struct ExtensionMap: SDPAttributeValue, SDPBytesParsable {
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
        self = try Tokens.withBytes(attributeValue) { bytes throws(SDPValueError) in try Self(bytes: bytes) }
    }

    init(bytes: SDPBytes) throws(SDPValueError) {
        let fields = try Self.scan(bytes)
        id = fields.id
        direction = fields.direction
        uri = Tokens.string(fields.uri)
        extensionAttributes = fields.rest.isEmpty ? nil : Tokens.string(fields.rest)
    }

    static func validate(bytes: SDPBytes) throws(SDPValueError) { _ = try scan(bytes) }

    private static func scan(_ bytes: SDPBytes) throws(SDPValueError)
        -> (id: Int, direction: RTPDirection?, uri: SDPBytes, rest: SDPBytes) {
        var fields = FieldScanner(bytes)
        guard let idField = fields.next(), let uriField = fields.next() else {
            throw SDPValueError("expected `<id>[/<direction>] <uri>`")
        }
        let idText: SDPBytes
        let direction: RTPDirection?
        if let (i, d) = Tokens.splitOnce(idField, at: UInt8(ascii: "/")) {
            guard let dir = RTPDirection(rawValue: Tokens.string(d)) else {
                throw SDPValueError("unknown direction `\(Tokens.string(d))`")
            }
            idText = i
            direction = dir
        } else {
            idText = idField
            direction = nil
        }
        guard let id = Tokens.int(idText), id <= 65535 else { throw SDPValueError("extension id is not a number") }
        return (id, direction, uriField, fields.rest)
    }

    public var attributeValue: String {
        var out = direction.map { "\(id)/\($0.rawValue)" } ?? "\(id)"
        out += " \(uri)"
        if let extensionAttributes { out += " \(extensionAttributes)" }
        return out
    }
}
