/// How a video request ended, from the requester's side.
public enum VideoRequestResult: Hashable, Sendable, CustomStringConvertible {
    /// Accepted; `mode` is the direction the answerer chose, seen from the requester.
    case accepted(VideoMode)
    /// The other side said no.
    case denied
    /// No answer within `CallConfiguration.videoRequestTimeout`: treated as declined.
    case timedOut

    public var description: String {
        switch self {
        case .accepted(let mode): "accepted \(mode)"
        case .denied: "denied"
        case .timedOut: "timed out"
        }
    }
}
