/// Why the signaling server could not serve.
public enum SignalingServerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The server stopped before it was listening (address in use, bad host...).
    case notListening(host: String, port: Int)
    /// The TLS certificate or key could not be used.
    case tls(reason: String)
    /// The token secret is shorter than HS256 allows (RFC 7518 §3.2).
    case secretTooShort(bytes: Int, minimum: Int)

    public var description: String {
        switch self {
        case .notListening(let host, let port):
            "signaling server could not listen on \(host):\(port) (address in use or not local?)"
        case .tls(let reason):
            "signaling server TLS: \(reason)"
        case .secretTooShort(let bytes, let minimum):
            "the token secret has \(bytes) bytes; HS256 needs at least \(minimum) (RFC 7518 §3.2): use e.g. `openssl rand -hex 32`"
        }
    }
}
