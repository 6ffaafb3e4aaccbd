internal import TernCore

/// `a=fingerprint:<hash function> <XX:XX:...>` (RFC 8122 §5): the certificate fingerprint DTLS checks.
public struct Fingerprint: SDPAttributeValue, SDPBytesParsable, Hashable {
    public static let attributeName = "fingerprint"
    /// Hash function name lowercased (`sha-1`, `sha-224`, `sha-256`, `sha-384`, `sha-512`, `md5`, `md2`, ...).
    public var algorithm: String
    /// Digest bytes.
    public var bytes: [UInt8]

    /// Creates a fingerprint.
    public init(algorithm: String, bytes: [UInt8]) {
        self.algorithm = algorithm.lowercased()
        self.bytes = bytes
    }

    public init(attributeValue: Substring) throws(SDPValueError) {
        self = try Tokens.withBytes(attributeValue) { bytes throws(SDPValueError) in try Self(bytes: bytes) }
    }

    init(bytes text: SDPBytes) throws(SDPValueError) {
        var fields = FieldScanner(text)
        guard let hash = fields.next(), let hex = fields.next(), fields.next() == nil else {
            throw SDPValueError("expected `<hash function> <fingerprint>`")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity((hex.count + 1) / 3)
        guard Self.forEachColonHexByte(hex, { bytes.append($0) }) else {
            throw SDPValueError("fingerprint is not colon-separated hex bytes")
        }
        algorithm = Tokens.string(hash).lowercased()
        self.bytes = bytes
    }

    static func validate(bytes text: SDPBytes) throws(SDPValueError) {
        var fields = FieldScanner(text)
        guard fields.next() != nil, let hex = fields.next(), fields.next() == nil else {
            throw SDPValueError("expected `<hash function> <fingerprint>`")
        }
        guard forEachColonHexByte(hex, { _ in }) else {
            throw SDPValueError("fingerprint is not colon-separated hex bytes")
        }
    }

    /// Walks `XX:XX:...`: every byte is two hex digits, separated by colons (RFC 8122 §5 `fingerprint`).
    /// Returns false when malformed; otherwise hands each byte to `body`.
    private static func forEachColonHexByte(_ hex: SDPBytes, _ body: (UInt8) -> Void) -> Bool {
        guard (hex.count + 1) % 3 == 0 else { return false }
        var index = hex.startIndex
        while index < hex.endIndex {
            guard let high = Hex.nibble(hex[index]), let low = Hex.nibble(hex[index + 1]) else { return false }
            body(high << 4 | low)
            index += 2
            if index < hex.endIndex {
                guard hex[index] == UInt8(ascii: ":") else { return false }
                index += 1
            }
        }
        return true
    }

    /// Uppercase colon-separated hex, as browsers write it.
    public var attributeValue: String { "\(algorithm) \(Hex.encode(bytes, separator: ":", uppercase: true))" }
}
