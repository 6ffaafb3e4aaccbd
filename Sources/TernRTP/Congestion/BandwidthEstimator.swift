public import TernCore

/// Send-side bandwidth estimation (Google Congestion Control, draft-ietf-rmcat-gcc-02 as
/// libwebrtc ships it) for one transport: transport-wide feedback in, a target send rate out —
/// the lower of the delay-based estimate, the loss-based bound and the peer's REMB, within
/// the configured limits. Sans-I/O: values and time in, a rate out; the media sender reads
/// `targetRate` to set its encoders (and, later, a pacer).
public struct BandwidthEstimator: Sendable {
    /// Limits and the rate to start from, bits per second.
    public struct Configuration: Sendable, Equatable {
        public var startRate: Double = 300_000
        public var minimumRate: Double = 30_000
        public var maximumRate: Double = 2_500_000

        public init(startRate: Double = 300_000, minimumRate: Double = 30_000, maximumRate: Double = 2_500_000) {
            self.startRate = startRate
            self.minimumRate = minimumRate
            self.maximumRate = maximumRate
        }
    }

    public let configuration: Configuration
    public private(set) var history = SentPacketHistory()
    public private(set) var delayBased: DelayBasedEstimator
    public private(set) var lossBased: LossBasedEstimator
    /// The peer's last REMB (RFC draft-alvestrand-rmcat-remb), bits per second, if any.
    public private(set) var remoteEstimate: Double?

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        delayBased = DelayBasedEstimator(startRate: configuration.startRate, minimumRate: configuration.minimumRate,
                                         maximumRate: configuration.maximumRate)
        lossBased = LossBasedEstimator(startRate: configuration.startRate, minimumRate: configuration.minimumRate,
                                       maximumRate: configuration.maximumRate)
    }

    /// The rate to send at now, bits per second.
    public var targetRate: Double {
        var rate = min(delayBased.rate, lossBased.rate)
        if let remoteEstimate { rate = min(rate, remoteEstimate) }
        return min(max(rate, configuration.minimumRate), configuration.maximumRate)
    }

    /// The transport-wide sequence number the next `packetSent` gives, for a packet being built.
    public var nextTransportSequenceNumber: UInt16 { history.nextSequenceNumber }

    /// Numbers a packet about to leave (`size` bytes on the wire): the value of its
    /// transport-wide sequence number header extension.
    public mutating func packetSent(size: Int, now: Instant) -> UInt16 {
        history.record(size: size, now: now)
    }

    /// A transport-wide feedback packet arrived; returns the new target.
    @discardableResult
    public mutating func handle(_ feedback: TransportWideCC, now: Instant) -> Double {
        let packets = history.feedback(for: feedback)
        delayBased.update(packets, now: now)
        lossBased.update(packets, now: now)
        lossBased.follow(delayBased.rate)
        return targetRate
    }

    /// The peer's REMB arrived (an upper bound: aiortc sends REMB, not transport-wide feedback).
    public mutating func handle(remb bitrate: UInt64) {
        remoteEstimate = Double(bitrate)
    }
}
