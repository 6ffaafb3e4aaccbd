/// Why a transport could not carry a frame.
public enum SignalingTransportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The connection is closed (by either side).
    case closed
    /// The connection failed; the text says how.
    case failed(String)

    public var description: String {
        switch self {
        case .closed: "signaling connection is closed"
        case .failed(let reason): "signaling connection failed: \(reason)"
        }
    }
}
