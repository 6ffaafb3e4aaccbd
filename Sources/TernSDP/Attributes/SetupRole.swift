/// `a=setup` (RFC 4145 §4, RFC 8842 §5): which side starts the DTLS handshake.
public enum SetupRole: String, SDPAttributeValue, SDPBytesParsable, CaseIterable {
    /// Either role; offers use this (RFC 8842 §5.2).
    case actpass
    /// Initiates (DTLS client).
    case active
    /// Waits (DTLS server).
    case passive
    /// Hold the connection.
    case holdconn

    public static let attributeName = "setup"

    public init(attributeValue: Substring) throws(SDPValueError) {
        self = try Tokens.withBytes(attributeValue) { bytes throws(SDPValueError) in try Self(bytes: bytes) }
    }

    init(bytes: SDPBytes) throws(SDPValueError) {
        guard let role = SetupRole(rawValue: Tokens.string(Tokens.trimmed(bytes)).lowercased()) else {
            throw SDPValueError("setup role must be actpass, active, passive or holdconn")
        }
        self = role
    }

    public var attributeValue: String { rawValue }
}
