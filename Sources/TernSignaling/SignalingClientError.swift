/// Why a `SignalingClient` operation failed.
public enum SignalingClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The server refused the message (e.g. `badToken` for `register`).
    case refused(SignalingError)
    /// The connection is closed or failed.
    case transport(SignalingTransportError)

    public var description: String {
        switch self {
        case .refused(let error): "signaling server refused: \(error)"
        case .transport(let error): "\(error)"
        }
    }
}
