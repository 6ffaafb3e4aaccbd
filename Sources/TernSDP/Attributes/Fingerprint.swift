internal import TernCore

/// `a=fingerprint:<hash function> <XX:XX:...>` (RFC 8122 §5): the certificate fingerprint DTLS checks.
public struct Fingerprint: SDPAttributeValue, Hashable {
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
        let parts = Tokens.fields(attributeValue)
        guard parts.count == 2 else { throw SDPValueError("expected `<hash function> <fingerprint>`") }
        let hex = parts[1]
        // Every byte is two hex digits, separated by colons (RFC 8122 §5 `fingerprint` rule).
        let pieces = Tokens.split(hex, on: UInt8(ascii: ":"))
        guard pieces.allSatisfy({ $0.utf8.count == 2 }), let bytes = Hex.decode(hex) else {
            throw SDPValueError("fingerprint is not colon-separated hex bytes")
        }
        algorithm = String(parts[0]).lowercased()
        self.bytes = bytes
    }

    /// Uppercase colon-separated hex, as browsers write it.
    public var attributeValue: String { "\(algorithm) \(Hex.encode(bytes, separator: ":", uppercase: true))" }
}
