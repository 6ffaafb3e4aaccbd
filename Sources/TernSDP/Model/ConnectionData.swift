/// The `c=` line (RFC 8866 §5.7): `c=<nettype> <addrtype> <connection-address>`.
public struct ConnectionData: Sendable, Equatable {
    /// Network type, normally `IN`.
    public var networkType: String
    /// `IP4` or `IP6`.
    public var addressType: String
    /// The address (WebRTC uses `0.0.0.0` and carries real addresses in candidates).
    public var address: String

    /// Creates a connection line.
    public init(networkType: String = "IN", addressType: String = "IP4", address: String = "0.0.0.0") {
        self.networkType = networkType
        self.addressType = addressType
        self.address = address
    }

    init(parsing text: SDPBytes) throws(SDPValueError) {
        let parts = Tokens.fields(text)
        guard parts.count == 3 else { throw SDPValueError("expected `<nettype> <addrtype> <address>`") }
        networkType = Tokens.string(parts[0])
        addressType = Tokens.string(parts[1])
        address = Tokens.string(parts[2])
        // RFC 8866 §5.7: for the Internet network type the address types are IP4 and IP6 (§8.2.6
        // registers no others); browsers refuse the rest, and so do we rather than guess.
        if networkType == "IN", addressType != "IP4", addressType != "IP6" {
            throw SDPValueError("unknown address type `\(addressType)` for network type IN (IP4 or IP6)")
        }
    }

    var text: String { SDPWriter.render(self) }
}
