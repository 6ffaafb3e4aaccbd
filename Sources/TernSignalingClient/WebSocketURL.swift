/// A parsed `ws://` or `wss://` URL (RFC 6455 §3): where to connect, whether over TLS, and
/// what to put in the opening handshake's request line and `Host` header (RFC 6455 §4.1).
struct WebSocketURL: Hashable, Sendable {
    /// Host name or address to connect to (an IPv6 literal without its brackets).
    let host: String
    /// TCP port (80, or 443 for `wss://`, when the URL gives none).
    let port: Int
    /// `wss://`: TLS first, the server's certificate verified for `host`.
    let secure: Bool
    /// Request target: the path and query, `/` when the URL has no path.
    let requestTarget: String
    /// Value of the `Host` header: the host as written, plus `:port` when not 80.
    let hostHeader: String

    /// Parses `text`, e.g. `ws://127.0.0.1:8787/v1`. The scheme is case-insensitive.
    init(parsing text: String) throws(WebSocketURLError) {
        let lowered = text.lowercased()
        secure = lowered.hasPrefix("wss://")
        guard secure || lowered.hasPrefix("ws://") else { throw .unsupportedScheme(url: text) }
        let rest = text.dropFirst(secure ? "wss://".count : "ws://".count)
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        var target = String(rest[authorityEnd...])
        if let fragment = target.firstIndex(of: "#") { target = String(target[..<fragment]) }  // §3: no fragments
        if target.isEmpty || target.first == "?" { target = "/" + target }
        guard !authority.contains("@") else { throw .malformed(url: text, reason: "user information is not supported") }

        // host, host:port, [v6], [v6]:port
        var hostPart = Substring(authority)
        var portPart: Substring?
        if authority.first == "[" {
            guard let close = authority.firstIndex(of: "]") else {
                throw .malformed(url: text, reason: "unterminated IPv6 literal")
            }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.first == ":" else { throw .malformed(url: text, reason: "junk after IPv6 literal") }
                portPart = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            hostPart = authority[..<colon]
            portPart = authority[authority.index(after: colon)...]
        }
        guard !hostPart.isEmpty else { throw .malformed(url: text, reason: "no host") }
        let defaultPort = secure ? 443 : 80
        var port = defaultPort
        if let portPart {
            guard let value = Int(portPart), (1...65535).contains(value) else {
                throw .malformed(url: text, reason: "port must be 1-65535, not '\(portPart)'")
            }
            port = value
        }
        host = String(hostPart)
        self.port = port
        requestTarget = target
        let written = authority.first == "[" ? "[\(hostPart)]" : String(hostPart)
        hostHeader = port == defaultPort ? written : "\(written):\(port)"
    }
}

/// Why a signaling URL cannot be used by `WebSocketSignalingTransport`.
enum WebSocketURLError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Neither `ws://` nor `wss://`.
    case unsupportedScheme(url: String)
    /// The URL does not parse; `reason` says which part is wrong.
    case malformed(url: String, reason: String)

    var description: String {
        switch self {
        case .unsupportedScheme(let url):
            "unsupported URL scheme in \(url): expected ws://HOST:PORT/PATH or wss://HOST:PORT/PATH"
        case .malformed(let url, let reason):
            "malformed WebSocket URL \(url): \(reason)"
        }
    }
}
