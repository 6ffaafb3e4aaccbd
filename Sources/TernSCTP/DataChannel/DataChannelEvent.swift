/// What a `DataChannelEndpoint` reports.
public enum DataChannelEvent: Sendable, Equatable {
    /// The SCTP association is established.
    case connected
    /// A channel became open: one we created, or one the peer opened with DATA_CHANNEL_OPEN.
    case channelOpened(DataChannelInfo)
    /// A message arrived on a channel.
    case message(channelId: UInt16, DataChannelMessage)
    /// A channel's bufferedAmount fell to or below its low threshold.
    case bufferedAmountLow(channelId: UInt16)
    /// A channel closed (both stream directions reset, or the association ended).
    case channelClosed(channelId: UInt16, reason: String)
    /// An incoming message was dropped (deprecated PPID 52/54, unknown PPID, bad DCEP, bad UTF-8).
    case messageRejected(channelId: UInt16, reason: String)
    /// The SCTP association closed; every channel is closed as well.
    case associationClosed(SCTPCloseReason)
}
