/// The stats of one second of a call, as the `tern` tool samples them.
///
/// A `nil` field means "not measured in that second" and leaves a gap in that
/// chart only. Turn a run of samples into the report's charts with
/// `StatsChart.standardCharts(from:)`.
public struct CallStatsSample: Codable, Sendable, Equatable {
    /// Seconds since the start of the call.
    public var tSeconds: Double
    /// Outgoing media bitrate over the last second, kbit/s.
    public var sentKbps: Double?
    /// Incoming media bitrate over the last second, kbit/s.
    public var receivedKbps: Double?
    /// Packets lost in the last second (RTCP RR cumulative-loss delta or receive gaps).
    public var packetsLost: Double?
    /// Interarrival jitter (RFC 3550 §6.4.1), milliseconds.
    public var jitterMs: Double?
    /// Round-trip time (RFC 3550 §6.4.1 LSR/DLSR, or STUN consent), milliseconds.
    public var rttMs: Double?
    /// Video frames decoded in the last second.
    public var framesDecoded: Double?
    /// Received audio level, 0 (silence) to 1 (full scale).
    public var audioLevel: Double?

    /// A sample at `tSeconds`; pass only what was measured.
    public init(tSeconds: Double, sentKbps: Double? = nil, receivedKbps: Double? = nil, packetsLost: Double? = nil,
                jitterMs: Double? = nil, rttMs: Double? = nil, framesDecoded: Double? = nil,
                audioLevel: Double? = nil) {
        self.tSeconds = tSeconds
        self.sentKbps = sentKbps
        self.receivedKbps = receivedKbps
        self.packetsLost = packetsLost
        self.jitterMs = jitterMs
        self.rttMs = rttMs
        self.framesDecoded = framesDecoded
        self.audioLevel = audioLevel
    }
}
