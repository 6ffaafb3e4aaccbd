public import TernCore

/// Statistics for every SSRC of one RTP session, and the RTCP reports built from
/// them: an SR when we sent media since the last report, an RR otherwise, each
/// with one report block per remote source heard from (RFC 3550 §6.4). Incoming
/// SRs feed LSR/DLSR; incoming report blocks about our sources give RTT.
public struct RTPSessionStatistics: Sendable {
    /// Our SSRC as a reporter.
    public let localSSRC: UInt32
    /// Wallclock mapping for NTP timestamps (SR) and RTT.
    public var clock: NTPClockMapping
    /// Reception statistics by remote SSRC.
    public private(set) var receiving: [UInt32: ReceiveStatistics] = [:]
    /// Send statistics by local SSRC.
    public private(set) var sending: [UInt32: SendStatistics] = [:]
    private var sentSinceLastReport = false

    /// Empty session statistics reporting as `localSSRC`.
    public init(localSSRC: UInt32, clock: NTPClockMapping) {
        self.localSSRC = localSSRC
        self.clock = clock
    }

    /// Records a received RTP packet of a source with the given clock rate.
    /// Returns A.1's verdict (false while on probation or for an invalid jump).
    @discardableResult
    public mutating func recordReceived(_ packet: RTPPacket, clockRate: UInt32, at now: Instant, isRetransmission: Bool = false) -> Bool {
        receiving[packet.ssrc, default: ReceiveStatistics(ssrc: packet.ssrc, clockRate: clockRate)]
            .record(packet, at: now, isRetransmission: isRetransmission)
    }

    /// Records an RTP packet we sent.
    public mutating func recordSent(_ packet: RTPPacket, clockRate: UInt32, at now: Instant) {
        sending[packet.ssrc, default: SendStatistics(ssrc: packet.ssrc, clockRate: clockRate)].recordSent(packet, at: now)
        sentSinceLastReport = true
    }

    /// Records a retransmission of one of our sources (plain or RTX).
    public mutating func recordRetransmission(of ssrc: UInt32, payloadBytes: Int) {
        sending[ssrc]?.recordRetransmission(payloadBytes: payloadBytes)
    }

    /// Takes in received RTCP: SRs (for LSR/DLSR), report blocks about our
    /// sources (RTT, remote loss and jitter), NACK and PLI counts.
    public mutating func handle(_ packets: [RTCPPacket], at now: Instant) {
        for packet in packets {
            switch packet {
            case let .senderReport(sr):
                receiving[sr.ssrc]?.recordSenderReport(sr.ntpTimestamp, at: now)
                handle(sr.reports, at: now)
            case let .receiverReport(rr):
                handle(rr.reports, at: now)
            case let .genericNACK(nack):
                sending[nack.mediaSSRC]?.recordNACK()
            case let .pictureLossIndication(pli):
                sending[pli.mediaSSRC]?.recordPLI()
            default:
                continue
            }
        }
    }

    private mutating func handle(_ blocks: [ReportBlock], at now: Instant) {
        for block in blocks {
            sending[block.ssrc]?.recordReportBlock(block, at: now, clock: clock)
        }
    }

    /// The report to send now: an SR for our first sending source if we sent since
    /// the last report, otherwise an RR; at most 31 report blocks (RFC 3550 §6.4).
    public mutating func makeReport(at now: Instant) -> RTCPPacket {
        var blocks: [ReportBlock] = []
        for ssrc in receiving.keys.sorted().prefix(31) {
            if let block = receiving[ssrc]?.makeReportBlock(at: now) { blocks.append(block) }
        }
        defer { sentSinceLastReport = false }
        if sentSinceLastReport, let sender = sending[localSSRC] ?? sending.values.first {
            return .senderReport(sender.makeSenderReport(at: now, clock: clock, reports: blocks))
        }
        return .receiverReport(ReceiverReport(ssrc: localSSRC, reports: blocks))
    }
}
