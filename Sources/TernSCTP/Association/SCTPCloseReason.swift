/// Why an association closed.
public enum SCTPCloseReason: Sendable, Equatable, CustomStringConvertible {
    /// Graceful SHUTDOWN sequence completed (RFC 9260 §9.2).
    case shutdown
    /// We aborted (`abort(reason:)`).
    case localAbort(String)
    /// The peer sent ABORT; the text summarises its error causes.
    case peerAbort(String)
    /// Association.Max.Retrans consecutive retransmission timeouts or unanswered heartbeats
    /// (RFC 9260 §8.1): the peer vanished.
    case peerUnreachable(retransmissions: Int)
    /// INIT or COOKIE ECHO went unanswered Max.Init.Retransmits times (RFC 9260 §5.1).
    case handshakeTimeout

    public var description: String {
        switch self {
        case .shutdown: "association shut down"
        case let .localAbort(r): "association aborted locally: \(r)"
        case let .peerAbort(r): "association aborted by peer: \(r)"
        case let .peerUnreachable(n): "peer unreachable after \(n) consecutive retransmissions/heartbeats"
        case .handshakeTimeout: "SCTP handshake timed out"
        }
    }
}
