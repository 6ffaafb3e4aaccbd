/// Why the signaling server could not serve.
public enum SignalingServerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The server stopped before it was listening (address in use, bad host...).
    case notListening(host: String, port: Int)
    /// The TLS certificate or key could not be used.
    case tls(reason: String)

    public var description: String {
        switch self {
        case .notListening(let host, let port):
            "signaling server could not listen on \(host):\(port) (address in use or not local?)"
        case .tls(let reason):
            "signaling server TLS: \(reason)"
        }
    }
}
