/// The `o=` line (RFC 8866 §5.2): `o=<username> <sess-id> <sess-version> <nettype> <addrtype> <unicast-address>`.
///
/// Session id and version are kept as text: the grammar allows any number of digits (Firefox uses 19–20).
public struct Origin: Sendable, Equatable {
    /// User name, `-` when unused.
    public var username: String
    /// Session id (digits).
    public var sessionId: String
    /// Session version (digits); incremented by JSEP each time the description changes.
    public var sessionVersion: String
    /// Network type, normally `IN`.
    public var networkType: String
    /// Address type, `IP4` or `IP6`.
    public var addressType: String
    /// Unicast address of the originator (WebRTC uses `127.0.0.1` or `0.0.0.0`).
    public var address: String

    /// Creates an origin line.
    public init(username: String = "-", sessionId: String, sessionVersion: String,
                networkType: String = "IN", addressType: String = "IP4", address: String = "127.0.0.1") {
        self.username = username
        self.sessionId = sessionId
        self.sessionVersion = sessionVersion
        self.networkType = networkType
        self.addressType = addressType
        self.address = address
    }

    init(parsing text: SDPBytes) throws(SDPValueError) {
        let parts = Tokens.fields(text)
        guard parts.count == 6 else { throw SDPValueError("expected 6 fields, found \(parts.count)") }
        username = Tokens.string(parts[0])
        sessionId = Tokens.string(parts[1])
        sessionVersion = Tokens.string(parts[2])
        networkType = Tokens.string(parts[3])
        addressType = Tokens.string(parts[4])
        address = Tokens.string(parts[5])
    }

    var text: String { SDPWriter.render(self) }
}
