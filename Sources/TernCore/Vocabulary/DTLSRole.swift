/// Which side of the DTLS handshake an endpoint plays (W3C `RTCDtlsRole`; RFC 5763 §5,
/// RFC 8842 §5.3). Shared by TernSDP (which derives it from `a=setup`), TernDTLS (which runs
/// the handshake) and the peer connection that joins them.
public enum DTLSRole: String, Sendable, Hashable, Codable, CaseIterable {
    /// Sends the ClientHello (`a=setup:active`).
    case client
    /// Waits for the ClientHello (`a=setup:passive`).
    case server

    /// The role for a negotiated `a=setup` value; nil for `actpass`/`holdconn`, which decide nothing.
    public init?(setupAttribute: String) {
        switch setupAttribute {
        case "active": self = .client
        case "passive": self = .server
        default: return nil
        }
    }

    /// The `a=setup` value that announces this role.
    public var setupAttribute: String { self == .client ? "active" : "passive" }

    /// The role the other endpoint plays.
    public var peer: DTLSRole { self == .client ? .server : .client }
}
