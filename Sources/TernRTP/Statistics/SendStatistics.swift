public import TernCore

/// Send-side statistics of one local source (SSRC): packet and octet counts for
/// SR sender info (RFC 3550 §6.4.1), and what the remote reports say about us
/// (RTT from LSR/DLSR, loss, jitter).
public struct SendStatistics: Sendable {
    /// The sent stream's SSRC.
    public let ssrc: UInt32
    /// The RTP clock rate (Hz).
    public let clockRate: UInt32

    /// RTP data packets sent (SR packet count; W3C `packetsSent`).
    public private(set) var packetsSent: UInt64 = 0
    /// Payload octets sent (SR octet count; W3C `bytesSent`).
    public private(set) var bytesSent: UInt64 = 0
    /// Header octets sent (W3C `headerBytesSent`).
    public private(set) var headerBytesSent: UInt64 = 0
    /// Retransmissions sent (W3C `retransmittedPacketsSent` / `retransmittedBytesSent`).
    public private(set) var retransmittedPacketsSent: UInt64 = 0
    /// Payload bytes of retransmissions sent.
    public private(set) var retransmittedBytesSent: UInt64 = 0
    /// NACK and PLI packets received about this source.
    public private(set) var nackCount: UInt64 = 0
    /// PLI packets received for this stream.
    public private(set) var pliCount: UInt64 = 0

    private var lastRTPTimestamp: UInt32?
    private var lastRTPInstant: Instant?

    /// From the latest report block about this source.
    public private(set) var roundTripTime: Duration?
    /// Fraction lost (0...1) in the latest report block about us.
    public private(set) var remoteFractionLost: Double = 0
    /// Cumulative loss in the latest report block about us.
    public private(set) var remotePacketsLost: Int64 = 0
    /// Jitter in timestamp units in the latest report block about us.
    public private(set) var remoteJitterUnits: UInt32 = 0
    /// Number of RTT measurements.
    public private(set) var roundTripTimeMeasurements: UInt64 = 0
    /// Sum of all RTT measurements, seconds.
    public private(set) var totalRoundTripTime: Duration = .zero

    /// Empty statistics for `ssrc` at `clockRate` Hz.
    public init(ssrc: UInt32, clockRate: UInt32) {
        self.ssrc = ssrc
        self.clockRate = clockRate
    }

    /// Records a sent RTP packet (not a retransmission).
    public mutating func recordSent(_ packet: RTPPacket, at now: Instant) {
        packetsSent += 1
        bytesSent += UInt64(packet.payload.count)
        headerBytesSent += UInt64(packet.headerSize + packet.padding.count)
        lastRTPTimestamp = packet.timestamp
        lastRTPInstant = now
    }

    /// Records a retransmitted packet (plain or RTX), whose payload bytes are `payloadBytes`.
    public mutating func recordRetransmission(payloadBytes: Int) {
        retransmittedPacketsSent += 1
        retransmittedBytesSent += UInt64(max(0, payloadBytes))
    }

    /// Counts a NACK or PLI received for this source.
    public mutating func recordNACK() { nackCount += 1 }
    /// Counts a PLI received for this source.
    public mutating func recordPLI() { pliCount += 1 }

    /// Builds an SR: NTP time of `now`, the RTP timestamp extrapolated from the last
    /// packet sent to `now` at `clockRate` (RFC 3550 §6.4.1), and the counts.
    public func makeSenderReport(at now: Instant, clock: NTPClockMapping, reports: [ReportBlock] = []) -> SenderReport {
        var rtpTimestamp: UInt32 = 0
        if let last = lastRTPTimestamp, let when = lastRTPInstant {
            let elapsed = Int128((now - when).nanoseconds) * Int128(clockRate) / 1_000_000_000
            rtpTimestamp = last &+ UInt32(truncatingIfNeeded: Int64(truncatingIfNeeded: elapsed))
        }
        return SenderReport(ssrc: ssrc, ntpTimestamp: clock.ntp(at: now), rtpTimestamp: rtpTimestamp,
                            packetCount: UInt32(truncatingIfNeeded: packetsSent), octetCount: UInt32(truncatingIfNeeded: bytesSent),
                            reports: reports)
    }

    /// Takes in a report block about this source (from an RR or SR), computing RTT
    /// per RFC 3550 §6.4.1: RTT = A − LSR − DLSR, in 1/65536 s, where A is the
    /// middle 32 bits of the NTP time at which the block arrived.
    public mutating func recordReportBlock(_ block: ReportBlock, at now: Instant, clock: NTPClockMapping) {
        remoteFractionLost = Double(block.fractionLost) / 256
        remotePacketsLost = Int64(block.cumulativeLost)
        remoteJitterUnits = block.jitter
        if let rtt = Self.roundTripTime(block, arrival: clock.ntp(at: now)) {
            roundTripTime = rtt
            roundTripTimeMeasurements += 1
            totalRoundTripTime += rtt
        }
    }

    /// RTT from a report block that arrived at NTP time `arrival`; nil if the block
    /// carries no LSR or the result would be negative (clock error).
    public static func roundTripTime(_ block: ReportBlock, arrival: NTPTimestamp) -> Duration? {
        guard block.lastSenderReport != 0 else { return nil }
        let units = arrival.middle32 &- block.lastSenderReport &- block.delaySinceLastSenderReport
        guard units < 0x8000_0000 else { return nil }
        return .nanoseconds((Int64(units) * 1_000_000_000) >> 16)
    }

    /// The W3C `RTCOutboundRtpStreamStats` view.
    public var outboundStats: OutboundRTPStreamStats {
        OutboundRTPStreamStats(ssrc: ssrc, packetsSent: packetsSent, bytesSent: bytesSent, headerBytesSent: headerBytesSent,
                               retransmittedPacketsSent: retransmittedPacketsSent, retransmittedBytesSent: retransmittedBytesSent,
                               nackCount: nackCount, pliCount: pliCount)
    }

    /// The W3C `RTCRemoteInboundRtpStreamStats` view (what the receiver reported).
    public var remoteInboundStats: RemoteInboundRTPStreamStats {
        RemoteInboundRTPStreamStats(ssrc: ssrc, packetsLost: remotePacketsLost, fractionLost: remoteFractionLost,
                                    jitter: clockRate == 0 ? 0 : Double(remoteJitterUnits) / Double(clockRate),
                                    roundTripTime: roundTripTime.map(\.seconds),
                                    totalRoundTripTime: totalRoundTripTime.seconds,
                                    roundTripTimeMeasurements: roundTripTimeMeasurements)
    }
}
