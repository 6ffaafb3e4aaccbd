/// Fields of W3C `RTCInboundRtpStreamStats` (webrtc-stats §8.4) that RTP reception provides.
public struct InboundRTPStreamStats: Sendable, Equatable, Encodable {
    /// The received stream's SSRC.
    public var ssrc: UInt32
    /// Packets counted as received (RFC 3550 A.1).
    public var packetsReceived: UInt64
    /// May be negative when duplicates are received (RFC 3550 §6.4.1).
    public var packetsLost: Int64
    /// Interarrival jitter in seconds.
    public var jitter: Double
    /// Payload bytes received.
    public var bytesReceived: UInt64
    /// RTP header and padding bytes received.
    public var headerBytesReceived: UInt64
    /// Packets rejected by sequence validation (A.1).
    public var packetsDiscarded: UInt64
}
