/// Fields of W3C `RTCRemoteInboundRtpStreamStats` (webrtc-stats §8.6): the remote
/// receiver's view of our stream, from its report blocks.
public struct RemoteInboundRTPStreamStats: Sendable, Equatable, Encodable {
    /// Our stream's SSRC, as reported on.
    public var ssrc: UInt32
    /// Cumulative packets lost as reported.
    public var packetsLost: Int64
    /// Fraction lost in the last report interval (0...1).
    public var fractionLost: Double
    /// Seconds.
    public var jitter: Double
    /// Seconds; nil until a report with LSR arrives.
    public var roundTripTime: Double?
    /// Sum of all RTT measurements, seconds.
    public var totalRoundTripTime: Double
    /// Number of RTT measurements.
    public var roundTripTimeMeasurements: UInt64
}
