/// Why the signaling server could not serve.
public enum SignalingServerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The server stopped before it was listening (address in use, bad host...).
    case notListening(host: String, port: Int)
    /// The TLS certificate or key could not be used.
    case tls(reason: String)
    /// The token secret is shorter than HS256 allows (RFC 7518 §3.2).
    case secretTooShort(bytes: Int, minimum: Int)
    /// The push webhook is not an http:// or https:// URL.
    case badPushWebhook(url: String)

    public var description: String {
        switch self {
        case .notListening(let host, let port):
            "signaling server could not listen on \(host):\(port) (address in use or not local?)"
        case .tls(let reason):
            "signaling server TLS: \(reason)"
        case .secretTooShort(let bytes, let minimum):
            "the secret has \(bytes) bytes; HS256 needs at least \(minimum) (RFC 7518 §3.2; the push signature, HMAC-SHA256, the same): use e.g. `openssl rand -hex 32`"
        case .badPushWebhook(let url):
            "the push webhook \"\(url)\" is not an http:// or https:// URL"
        }
    }
}
