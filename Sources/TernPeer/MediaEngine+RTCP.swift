import TernCore
import TernMedia
import TernRTP
import TernSDP

/// RTCP: reports and feedback in, our compound reports out (RFC 3550 §6).
extension MediaEngine {

    mutating func receiveRTCP(_ bytes: [UInt8], now: Instant, into output: inout TransportCore.Output) {
        let packets: [RTCPPacket]
        do { packets = try RTCPPacket.parseCompound(bytes) } catch {
            malformedPackets += 1
            return
        }
        rtcpPacketsReceived += 1
        rtcpSchedule.didReceive(size: bytes.count)
        // RFC 3550 §6.4: the first packet's sender SSRC is the one SRTCP authenticated it under.
        if bytes.count >= 8 {
            let sender = UInt32(bytes[4]) << 24 | UInt32(bytes[5]) << 16 | UInt32(bytes[6]) << 8 | UInt32(bytes[7])
            if receivers[sender] == nil, !rtcpOnlySenders.contains(sender) {
                if rtcpOnlySenders.count < Self.maximumRTCPOnlySenders {
                    rtcpOnlySenders.insert(sender)
                } else {
                    rtcpSendersRefused += 1
                    forget(sender)
                }
            }
        }
        for packet in packets {
            switch packet {
            case let .senderReport(report):
                receivers[report.ssrc]?.statistics.recordSenderReport(report.ntpTimestamp, at: now)
                apply(report.reports, now: now)
            case let .receiverReport(report):
                apply(report.reports, now: now)
            case let .genericNACK(nack):
                guard var sender = senders[nack.mediaSSRC] else { continue }
                sender.statistics.recordNACK()
                let resent = sender.history.respond(to: nack, at: now, rtt: sender.statistics.roundTripTime)
                for packet in resent {
                    guard let original = sender.history.originalSequenceNumber(of: packet) else { continue }
                    sender.statistics.recordRetransmission(payloadBytes: sender.history.resentPayloadBytes(of: packet))
                    resend(packet, of: (nack.mediaSSRC, original), transportCCExtensionID: sender.configuration.transportCCExtensionID,
                           now: now)
                }
                senders[nack.mediaSSRC] = sender
            case let .pictureLossIndication(pli):
                senders[pli.mediaSSRC]?.statistics.recordPLI()
                output.events.append(.keyframeRequested(ssrc: pli.mediaSSRC))
            case let .fullIntraRequest(fir):
                for entry in fir.entries where senders[entry.ssrc] != nil {
                    output.events.append(.keyframeRequested(ssrc: entry.ssrc))
                }
            case let .transportWideCC(feedback):
                bandwidth.setUntrackedRate(linkShare.dataRate(now: now))
                bandwidth.handle(feedback, now: now)
                discardStaleVideo(now: now, into: &output)
            case let .receiverEstimatedMaximumBitrate(remb):
                bandwidth.handle(remb: remb.bitrate)
                discardStaleVideo(now: now, into: &output)
            default:
                break
            }
        }
    }

    mutating func apply(_ blocks: [ReportBlock], now: Instant) {
        for block in blocks {
            senders[block.ssrc]?.statistics.recordReportBlock(block, at: now, clock: ntpMapping)
        }
    }

    /// A compound RTCP packet (RFC 3550 §6.1): an SR per sending stream (or one RR), report
    /// blocks for every received stream, and an SDES CNAME.
    mutating func makeReport(now: Instant) -> [UInt8] {
        var blocks: [ReportBlock] = []
        for ssrc in receivers.keys.sorted() {
            guard var receiver = receivers[ssrc] else { continue }
            blocks.append(receiver.statistics.makeReportBlock(at: now))
            receivers[ssrc] = receiver
        }
        var packets: [RTCPPacket] = []
        let sending = senders.keys.filter { senders[$0]?.isActive == true }.sorted()
        if sending.isEmpty {
            packets.append(.receiverReport(ReceiverReport(ssrc: localRTCPSSRC, reports: Array(blocks.prefix(31)))))
        } else {
            for (index, ssrc) in sending.enumerated() {
                guard let sender = senders[ssrc] else { continue }
                let reports = index == 0 ? Array(blocks.prefix(31)) : []
                packets.append(.senderReport(sender.statistics.makeSenderReport(at: now, clock: ntpMapping, reports: reports)))
            }
        }
        let source = sending.first ?? localRTCPSSRC
        packets.append(.sourceDescription(SourceDescription(chunks: [
            .init(source: source, items: [.init(type: 1, value: Array(cname.utf8)[...])]),
        ])))
        return RTCPPacket.serialize(packets)
    }
}
