/// A snapshot of one data channel.
public struct DataChannelInfo: Sendable, Equatable {
    /// SCTP stream identifier (W3C `id`).
    public var id: UInt16
    /// Channel label.
    public var label: String
    /// Sub-protocol name.
    public var `protocol`: String
    /// Whether messages are delivered in order.
    public var ordered: Bool
    /// Partial reliability: retransmission limit.
    public var maxRetransmits: UInt16?
    /// Partial reliability: lifetime in milliseconds.
    public var maxPacketLifeTime: UInt16?
    /// Pre-negotiated (no DCEP).
    public var negotiated: Bool
    /// RFC 8832 priority.
    public var priority: UInt16
    /// W3C readyState.
    public var readyState: DataChannelState
    /// Bytes queued and not yet sent (W3C `bufferedAmount`).
    public var bufferedAmount: Int
    /// True when the peer opened the channel with DATA_CHANNEL_OPEN (W3C `datachannel` event);
    /// false for channels created locally (W3C `open` event).
    public var openedByPeer: Bool = false
}
