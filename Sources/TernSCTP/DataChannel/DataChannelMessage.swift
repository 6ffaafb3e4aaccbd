/// A data channel message (W3C `MessageEvent.data`): text (PPID 51/56) or binary (PPID 53/57).
public enum DataChannelMessage: Sendable, Equatable {
    case string(String)
    case binary([UInt8])

    /// Bytes the message takes on the wire (for bufferedAmount and max-message-size).
    public var byteCount: Int {
        switch self {
        case let .string(s): s.utf8.count
        case let .binary(b): b.count
        }
    }
}
