/// `a=ssrc:<ssrc> <attribute>[:<value>]` (RFC 5576 §4.1), e.g. `a=ssrc:1234 cname:abc`.
public struct SSRCAttribute: SDPAttributeValue, SDPBytesParsable {
    public static let attributeName = "ssrc"
    /// The synchronisation source.
    public var ssrc: UInt32
    /// Source attribute name (`cname`, `msid`, ...); empty when the line has only the SSRC.
    public var name: String
    /// Source attribute value, if any.
    public var value: String?

    /// Creates an ssrc attribute.
    public init(ssrc: UInt32, name: String, value: String? = nil) {
        self.ssrc = ssrc
        self.name = name
        self.value = value
    }

    public init(attributeValue: Substring) throws(SDPValueError) {
        self = try Tokens.withBytes(attributeValue) { bytes throws(SDPValueError) in try Self(bytes: bytes) }
    }

    init(bytes: SDPBytes) throws(SDPValueError) {
        let (ssrc, rest) = try Self.scan(bytes)
        self.ssrc = ssrc
        if let (n, v) = Tokens.splitOnce(rest, at: UInt8(ascii: ":")) {
            name = Tokens.string(n)
            value = Tokens.string(v)
        } else {
            name = Tokens.string(rest)
            value = nil
        }
    }

    static func validate(bytes: SDPBytes) throws(SDPValueError) { _ = try scan(bytes) }

    /// The SSRC and the source attribute text after it.
    private static func scan(_ bytes: SDPBytes) throws(SDPValueError) -> (UInt32, SDPBytes) {
        let trimmed = Tokens.trimmed(bytes)
        let idText: SDPBytes
        let rest: SDPBytes
        if let (i, r) = Tokens.splitOnce(trimmed, at: UInt8(ascii: " ")) {
            idText = i
            rest = Tokens.trimmed(r)
        } else {
            idText = trimmed
            rest = trimmed[trimmed.endIndex...]
        }
        guard let ssrc = Tokens.number(idText, as: UInt32.self) else { throw SDPValueError("SSRC is not a 32-bit number") }
        return (ssrc, rest)
    }

    public var attributeValue: String {
        if name.isEmpty { return "\(ssrc)" }
        return value.map { "\(ssrc) \(name):\($0)" } ?? "\(ssrc) \(name)"
    }
}
