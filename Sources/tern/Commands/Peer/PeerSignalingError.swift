/// Why `tern peer` could not get onto a signaling server.
enum PeerSignalingError: Error, CustomStringConvertible {
    /// No WebSocket to `url` (server down, wrong address, TLS refused).
    case cannotConnect(url: String, String)
    /// Connected, but the server refused the `register` (bad or expired token, too many devices).
    case registerRefused(url: String, user: String, String)

    var description: String {
        switch self {
        case let .cannotConnect(url, why): "cannot connect to \(url): \(why)"
        case let .registerRefused(url, user, why): "\(url) refused to register \(user): \(why)"
        }
    }
}
