/// Why `SCTPAssociation.send` refused a message.
public enum SCTPSendError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The association is closing or closed.
    case notSendable(state: SCTPAssociationState)
    /// The stream identifier is not below the negotiated outbound stream count.
    case invalidStream(UInt16, streamCount: Int)
    /// SCTP cannot carry an empty user message (RFC 9260 §3.3.1); RFC 8831 uses PPID 56/57 with one byte.
    case emptyMessage
    /// Queuing a `message`-byte message would exceed `SCTPAssociationConfig.sendBufferSize`.
    case sendBufferFull(message: Int, queued: Int, limit: Int)

    public var description: String {
        switch self {
        case let .notSendable(state): "cannot send: association is \(state.rawValue)"
        case let .invalidStream(id, count): "stream \(id) is out of range (\(count) outbound streams negotiated)"
        case .emptyMessage: "SCTP cannot send an empty message"
        case let .sendBufferFull(message, queued, limit):
            "send buffer full: a \(message)-byte message does not fit beside \(queued) bytes queued (limit \(limit), SCTPAssociationConfig.sendBufferSize)"
        }
    }
}
