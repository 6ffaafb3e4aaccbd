/// Errors of the data channel API, with what to do about them.
public enum DataChannelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The message exceeds the peer's max-message-size (RFC 8841 §6, SDP `a=max-message-size`).
    case messageTooLarge(size: Int, limit: Int)
    /// The channel is not open (W3C InvalidStateError).
    case invalidState(DataChannelState)
    /// No channel has this id.
    case unknownChannel(UInt16)
    /// The requested id is in use or out of range, or `negotiated` lacks an id.
    case invalidId(String)
    /// `maxRetransmits` and `maxPacketLifeTime` were both given (W3C TypeError).
    case conflictingReliability
    /// No free stream id is left.
    case noFreeStream
    /// A DCEP message could not be parsed.
    case malformedDCEP(String)
    /// The association refused the message.
    case association(SCTPSendError)

    public var description: String {
        switch self {
        case let .messageTooLarge(size, limit): "message of \(size) bytes exceeds the peer's max-message-size of \(limit) bytes"
        case let .invalidState(s): "data channel is \(s.rawValue), not open"
        case let .unknownChannel(id): "no data channel with id \(id)"
        case let .invalidId(why): "invalid data channel id: \(why)"
        case .conflictingReliability: "maxRetransmits and maxPacketLifeTime cannot both be set"
        case .noFreeStream: "no free SCTP stream for a new data channel"
        case let .malformedDCEP(why): "malformed DCEP message: \(why)"
        case let .association(e): "SCTP: \(e)"
        }
    }
}
