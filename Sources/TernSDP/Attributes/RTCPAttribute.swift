/// `a=rtcp:<port> [<nettype> <addrtype> <address>]` (RFC 3605 §2.1).
public struct RTCPAttribute: SDPAttributeValue, SDPBytesParsable {
    public static let attributeName = "rtcp"
    /// RTCP port.
    public var port: Int
    /// Optional connection address.
    public var connection: ConnectionData?

    /// Creates an rtcp attribute.
    public init(port: Int, connection: ConnectionData? = nil) {
        self.port = port
        self.connection = connection
    }

    public init(attributeValue: Substring) throws(SDPValueError) {
        self = try Tokens.withBytes(attributeValue) { bytes throws(SDPValueError) in try Self(bytes: bytes) }
    }

    init(bytes: SDPBytes) throws(SDPValueError) {
        let parts = Tokens.fields(bytes)
        guard !parts.isEmpty, let port = Tokens.int(parts[0]), port <= 65535 else {
            throw SDPValueError("RTCP port is not a number between 0 and 65535")
        }
        self.port = port
        if parts.count == 4 {
            connection = ConnectionData(networkType: Tokens.string(parts[1]), addressType: Tokens.string(parts[2]),
                                        address: Tokens.string(parts[3]))
        } else if parts.count == 1 {
            connection = nil
        } else {
            throw SDPValueError("expected `<port> [<nettype> <addrtype> <address>]`")
        }
    }

    public var attributeValue: String { connection.map { "\(port) \($0.text)" } ?? "\(port)" }
}
