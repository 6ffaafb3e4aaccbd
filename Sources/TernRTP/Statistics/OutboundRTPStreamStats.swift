/// Fields of W3C `RTCOutboundRtpStreamStats` (webrtc-stats §8.7).
public struct OutboundRTPStreamStats: Sendable, Equatable, Encodable {
    /// The sent stream's SSRC.
    public var ssrc: UInt32
    /// RTP packets sent, retransmissions excluded.
    public var packetsSent: UInt64
    /// Payload bytes sent, retransmissions excluded.
    public var bytesSent: UInt64
    /// RTP header and padding bytes sent.
    public var headerBytesSent: UInt64
    /// Retransmissions sent.
    public var retransmittedPacketsSent: UInt64
    /// Media payload bytes of retransmissions sent (an RTX packet's OSN is framing, not counted).
    public var retransmittedBytesSent: UInt64
    /// Generic NACK packets received for this stream.
    public var nackCount: UInt64
    /// PLI packets received for this stream.
    public var pliCount: UInt64
}
