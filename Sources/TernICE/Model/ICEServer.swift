/// A STUN or TURN server (W3C `RTCIceServer`, URLs per RFC 7064 / RFC 7065).
///
/// `stun:host[:port]`, `turn:host[:port][?transport=udp|tcp]`, `turns:host[:port]`
/// (TLS over TCP). libnice needs a literal IP address; host names are resolved
/// once, when the transport is created (`ICETransport.init`), with the system resolver
/// (for `turns:` the name as written is still what the server's certificate must match).
public struct ICEServer: Hashable, Sendable, Codable, CustomStringConvertible {
    /// STUN or TURN, and for TURN how we reach the server.
    public enum Kind: String, Hashable, Sendable, Codable {
        /// STUN binding requests only (server-reflexive candidates).
        case stun
        /// TURN over UDP.
        case turnUDP = "turn-udp"
        /// TURN over TCP (RFC 6062 framing to the server; relayed traffic is still UDP).
        case turnTCP = "turn-tcp"
        /// TURN over TLS (`turns:`, RFC 7065). libnice 0.1.21 opens no TLS session itself, so
        /// Tern runs a local TLS bridge for each such server on the transport's loop thread
        /// (OpenSSL, TLS 1.2+, SNI, certificate and host name verified per
        /// `ICEConfiguration.turnTLS`) and gives libnice the bridge as a TURN/TCP server
        /// (Docs/ICE.md, "TURN over TLS").
        case turnTLS = "turn-tls"
    }

    /// Server kind.
    public var kind: Kind
    /// Host name or IP literal (IPv6 without brackets).
    public var host: String
    /// Port (3478 default, 5349 for `turns:`).
    public var port: UInt16
    /// TURN long-term credential user name.
    public var username: String?
    /// TURN long-term credential password.
    public var credential: String?

    /// Memberwise initialiser.
    public init(kind: Kind, host: String, port: UInt16, username: String? = nil, credential: String? = nil) {
        self.kind = kind
        self.host = host
        self.port = port
        self.username = username
        self.credential = credential
    }

    /// Parses one W3C `urls` entry.
    public init(url: String, username: String? = nil, credential: String? = nil) throws(ICEError) {
        func bad(_ why: String) -> ICEError { .invalidConfiguration(reason: "ICE server URL '\(url)': \(why)") }
        guard let colon = url.firstIndex(of: ":") else { throw bad("missing scheme (stun:, turn:, turns:)") }
        let scheme = url[..<colon].lowercased()
        var rest = Substring(url[url.index(after: colon)...])
        var transport = "udp"
        if let q = rest.firstIndex(of: "?") {
            let query = rest[rest.index(after: q)...].lowercased()
            rest = rest[..<q]
            for item in query.split(separator: "&") {
                let kv = item.split(separator: "=", maxSplits: 1)
                if kv.count == 2, kv[0] == "transport" { transport = String(kv[1]) }
            }
        }
        let kind: Kind
        switch (scheme, transport) {
        case ("stun", _): kind = .stun
        case ("turn", "udp"): kind = .turnUDP
        case ("turn", "tcp"): kind = .turnTCP
        case ("turns", _): kind = .turnTLS
        default: throw bad("unsupported scheme or transport '\(scheme)' / '\(transport)'")
        }
        let (host, port) = try Self.splitHostPort(rest, defaultPort: kind == .turnTLS ? 5349 : 3478, bad)
        self.init(kind: kind, host: host, port: port, username: username, credential: credential)
        if kind != .stun, username == nil || credential == nil { throw bad("TURN needs a username and a credential") }
    }

    /// Parses the command-line form with inline credentials:
    /// `turn:USER:PASS@HOST[:PORT][?transport=tcp]`, `turns:USER:PASS@HOST[:PORT]`, or any plain URL.
    public init(inlineCredentialsURL text: String) throws(ICEError) {
        guard let at = text.lastIndex(of: "@"), let colon = text.firstIndex(of: ":"), colon < at else {
            try self.init(url: text)
            return
        }
        let scheme = text[..<colon]
        let userinfo = text[text.index(after: colon)..<at]
        guard let split = userinfo.firstIndex(of: ":") else {
            throw .invalidConfiguration(reason: "ICE server URL '\(text)': expected USER:PASS@ before the host")
        }
        try self.init(url: "\(scheme):\(text[text.index(after: at)...])",
                      username: String(userinfo[..<split]),
                      credential: String(userinfo[userinfo.index(after: split)...]))
    }

    static func splitHostPort(_ text: Substring, defaultPort: UInt16,
                              _ bad: (String) -> ICEError) throws(ICEError) -> (String, UInt16) {
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw bad("unterminated IPv6 literal") }
            let host = String(text[text.index(after: text.startIndex)..<close])
            let after = text[text.index(after: close)...]
            if after.isEmpty { return (host, defaultPort) }
            guard after.hasPrefix(":"), let port = UInt16(after.dropFirst()) else { throw bad("bad port") }
            return (host, port)
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        switch parts.count {
        case 1 where !parts[0].isEmpty: return (String(parts[0]), defaultPort)
        case 2 where !parts[0].isEmpty:
            guard let port = UInt16(parts[1]), port > 0 else { throw bad("bad port '\(parts[1])'") }
            return (String(parts[0]), port)
        default: throw bad("expected host[:port]")
        }
    }

    public var description: String { "\(kind.rawValue) \(host):\(port)" }
}
