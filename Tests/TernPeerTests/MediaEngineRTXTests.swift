import Foundation
import Testing
import TernCore
import TernMedia
import TernRTP
@testable import TernPeer

/// Retransmission on the RTX stream (RFC 4588) through the peer connection's media engine, sans
/// I/O: a NACKed packet goes out on the RTX SSRC and payload type, and the receiving engine
/// unwraps it into the original stream.
@Suite struct MediaEngineRTXTests {
    static let primary: UInt32 = 0x1111_0001
    static let rtx: UInt32 = 0x1111_0002
    static func at(_ ms: Int64) -> Instant { .zero + .milliseconds(ms) }

    private func engine(seed: UInt64) -> MediaEngine {
        MediaEngine(localRTCPSSRC: UInt32(truncatingIfNeeded: seed) | 1, cname: "test",
                    ntpMapping: NTPClockMapping(instant: .zero, ntp: NTPTimestamp(wallClock: Date())), now: .zero, seed: seed)
    }

    private func receiving(rtxSSRCs: [UInt32: UInt32]) -> MediaEngine {
        var receiver = engine(seed: 2)
        receiver.configure(senders: [], receivers: [ReceiveStreamConfiguration(
            mid: "0", kind: .video, announcedSSRCs: rtxSSRCs.isEmpty ? [] : [Self.primary, Self.rtx],
            payloadTypes: [96: ("VP8", 90_000)], midExtensionID: nil, nackEnabled: true,
            rtxPayloadTypes: [97: 96], rtxSSRCs: rtxSSRCs)])
        return receiver
    }

    /// Three packets of one VP8 keyframe (RFC 7741 descriptor: S=1 on the first).
    private func sendThreePackets(_ sender: inout MediaEngine, timestamp: UInt32 = 3000) -> [[UInt8]] {
        let units = (0..<3).map { index in
            RTPPayloadUnit(payload: [index == 0 ? 0x10 : 0x00, 0x00, 0x9d, 0x01, 0x2a, UInt8(index)],
                           marker: index == 2, timestamp: timestamp)
        }
        let accepted = sender.send(units, ssrc: Self.primary, now: .zero)
        #expect(accepted)
        return Self.drainPaced(&sender, from: .zero)
    }

    /// Everything the pacer holds, taken as it lets it go (virtual time moves to each deadline).
    static func drainPaced(_ engine: inout MediaEngine, from start: Instant) -> [[UInt8]] {
        var now = start, out: [[UInt8]] = []
        while true {
            out += engine.takeQueuedRTP(now: now)
            guard engine.pacer.queuedPackets > 0, let next = engine.pacer.nextTimeout else { return out }
            now = max(now, next)
        }
    }

    private func nack(_ lost: UInt16) -> [UInt8] {
        RTCPPacket.serialize([.receiverReport(ReceiverReport(ssrc: 0x2222)),
                              .genericNACK(GenericNACK(senderSSRC: 0x2222, mediaSSRC: Self.primary, lost: [lost]))])
    }

    @Test("a NACKed packet is resent on the RTX stream and the receiver recovers the original from it",
          arguments: [[rtx: primary], [:]] as [[UInt32: UInt32]])
    func nackedPacketTravelsAsRTX(rtxSSRCs: [UInt32: UInt32]) throws {
        var sender = engine(seed: 1)
        sender.configure(senders: [SendStreamConfiguration(
            mid: "0", kind: .video, ssrc: Self.primary, payloadType: 96, codecName: "VP8", clockRate: 90_000,
            midExtensionID: nil, nackEnabled: true, rtx: RTXStream(ssrc: Self.rtx, payloadType: 97))], receivers: [])
        var receiver = receiving(rtxSSRCs: rtxSSRCs)
        var output = TransportCore.Output()
        // A first frame arrives whole: the source passes RFC 3550 A.1 probation.
        let firstFrame = sendThreePackets(&sender, timestamp: 0)
        for bytes in firstFrame { receiver.receiveRTP(bytes, now: .zero, into: &output) }
        let sent = sendThreePackets(&sender)
        receiver.receiveRTP(sent[0], now: Self.at(1), into: &output)
        receiver.receiveRTP(sent[2], now: Self.at(2), into: &output)  // sent[1] is lost
        #expect(output.events.isEmpty == false, "the stream started")
        let lost = try RTPPacket(parsing: sent[1])

        sender.receiveRTCP(nack(lost.sequenceNumber), now: Self.at(30), into: &output)
        let resent = Self.drainPaced(&sender, from: Self.at(30))
        try #require(resent.count == 1)
        let rtxPacket = try RTPPacket(parsing: resent[0])
        #expect(rtxPacket.ssrc == Self.rtx && rtxPacket.payloadType == 97)
        #expect(Array(rtxPacket.payload.prefix(2)) == [UInt8(lost.sequenceNumber >> 8), UInt8(lost.sequenceNumber & 0xff)],
                "the payload starts with the original sequence number (RFC 4588 §4)")
        #expect(Array(rtxPacket.payload.dropFirst(2)) == Array(lost.payload))
        #expect(sender.senders[Self.primary]?.statistics.outboundStats.retransmittedPacketsSent == 1)

        output = TransportCore.Output()
        receiver.receiveRTP(resent[0], now: Self.at(40), into: &output)
        let stream = try #require(receiver.receivers[Self.primary])
        #expect(stream.retransmissionsReceived == 1)
        // The same counters as a receiver that lost nothing (RFC 3550 A.1 probation included).
        var lossless = receiving(rtxSSRCs: rtxSSRCs)
        var ignored = TransportCore.Output()
        for bytes in firstFrame + sent { lossless.receiveRTP(bytes, now: .zero, into: &ignored) }
        #expect(stream.statistics.inboundStats.packetsReceived
                == lossless.receivers[Self.primary]?.statistics.inboundStats.packetsReceived)
        #expect(stream.statistics.inboundStats.packetsLost == 0)
        #expect(stream.framesAssembled == 2, "the second frame completed with the recovered packet")
        #expect(receiver.receivers[Self.rtx] == nil, "the RTX SSRC is not taken for a stream of its own")
        #expect(receiver.unroutablePackets == 0 && receiver.malformedPackets == 0)
    }

    @Test("after the capacity falls, video that would take over a second to send at the estimate is dropped for a keyframe, and NACKs for what went before are refused")
    func staleVideoIsDroppedForAKeyframe() throws {
        var sender = engine(seed: 1)
        sender.configure(senders: [SendStreamConfiguration(
            mid: "0", kind: .video, ssrc: Self.primary, payloadType: 96, codecName: "VP8", clockRate: 90_000,
            midExtensionID: nil, nackEnabled: true, rtx: RTXStream(ssrc: Self.rtx, payloadType: 97))], receivers: [])
        let sent = sendThreePackets(&sender, timestamp: 0)
        let first = try RTPPacket(parsing: sent[0])
        var output = TransportCore.Output()
        // A backlog under a second at the estimate is left alone.
        sender.discardStaleVideo(now: Self.at(10), into: &output)
        #expect(output.events.isEmpty && sender.staleVideoDiscards == 0)
        // 60 KB of frames made at the old rate wait in the pacer: seconds at the start estimate.
        sender.pacer.windowRoom = 0
        for frame in 1...40 {
            let units = (0..<2).map { index in
                RTPPayloadUnit(payload: [UInt8](repeating: UInt8(index), count: 750), marker: index == 1, timestamp: UInt32(frame) * 3000)
            }
            _ = sender.send(units, ssrc: Self.primary, now: Self.at(20))
        }
        #expect(sender.videoBacklogSeconds > 1)
        sender.discardStaleVideo(now: Self.at(30), into: &output)
        #expect(sender.pacer.queuedBytes(.video) == 0 && sender.pacer.queuedBytes(.retransmission) == 0)
        #expect(sender.staleVideoDiscards == 1 && sender.pacer.discardedPackets == 80)
        let requested = output.events.contains { if case .keyframeRequested(Self.primary) = $0 { true } else { false } }
        #expect(requested, "the encoder restarts the stream with a keyframe: \(output.events)")
        // The receiver's requests for packets from before the keyframe are refused.
        sender.receiveRTCP(nack(first.sequenceNumber), now: Self.at(40), into: &output)
        #expect(sender.pacer.queuedBytes(.retransmission) == 0)
        #expect(sender.senders[Self.primary]?.history.missed == 1)
    }

    @Test("a padding-only RTX packet (a bandwidth probe) is counted and dropped")
    func paddingOnlyRTXIsDropped() throws {
        var sender = engine(seed: 1)
        sender.configure(senders: [SendStreamConfiguration(
            mid: "0", kind: .video, ssrc: Self.primary, payloadType: 96, codecName: "VP8", clockRate: 90_000,
            midExtensionID: nil, nackEnabled: true)], receivers: [])
        var receiver = receiving(rtxSSRCs: [Self.rtx: Self.primary])
        var output = TransportCore.Output()
        for bytes in sendThreePackets(&sender) { receiver.receiveRTP(bytes, now: Self.at(1), into: &output) }
        var probe: [UInt8] = []
        RTPPacket(payloadType: 97, sequenceNumber: 7, timestamp: 3000, ssrc: Self.rtx, paddingSize: 200).write(to: &probe)
        receiver.receiveRTP(probe, now: Self.at(2), into: &output)
        #expect(receiver.rtxPaddingPackets == 1)
        #expect(receiver.unroutablePackets == 0 && receiver.malformedPackets == 0)
        #expect(receiver.receivers[Self.primary]?.retransmissionsReceived == 0)
    }

    @Test("without RTX negotiated a NACKed packet is resent as it was")
    func plainRetransmissionWithoutRTX() throws {
        var sender = engine(seed: 1)
        sender.configure(senders: [SendStreamConfiguration(
            mid: "0", kind: .video, ssrc: Self.primary, payloadType: 96, codecName: "VP8", clockRate: 90_000,
            midExtensionID: nil, nackEnabled: true)], receivers: [])
        let sent = sendThreePackets(&sender)
        var output = TransportCore.Output()
        let lost = try RTPPacket(parsing: sent[1])
        sender.receiveRTCP(nack(lost.sequenceNumber), now: Self.at(30), into: &output)
        let resent = Self.drainPaced(&sender, from: Self.at(30))
        #expect(resent == [sent[1]])
    }
}

/// A peer inventing SSRCs: each new one with the section's mid would make a receiver (and its
/// jitter buffer or decoder) and, in libsrtp, a stream context.
@Suite struct MediaEngineStreamCapTests {
    @Test func aSectionBindsAtMostItsLimitOfStreamsAndTheRestAreForgotten() throws {
        var engine = MediaEngine(localRTCPSSRC: 7, cname: "test",
                                 ntpMapping: NTPClockMapping(instant: .zero, ntp: NTPTimestamp(wallClock: Date())), now: .zero, seed: 3)
        engine.configure(senders: [], receivers: [ReceiveStreamConfiguration(
            mid: "0", kind: .audio, announcedSSRCs: [], payloadTypes: [111: ("opus", 48_000)], midExtensionID: 4,
            nackEnabled: false, rtxPayloadTypes: [:], rtxSSRCs: [:])])
        var output = TransportCore.Output()
        for i in 0..<100 {
            // Each names the section by the mid header extension (RFC 8843 §9.2), as a real stream does.
            let packet = RTPPacket(payloadType: 111, sequenceNumber: 1, timestamp: 0, ssrc: 0x5000_0000 + UInt32(i),
                                   headerExtension: RTPHeaderExtension(elements: [RTPHeaderExtensionElement(id: 4, value: Array("0".utf8))]),
                                   payload: [0xF8, 0xFF, 0xFE])
            engine.receiveRTP(packet.bytes, now: .zero, into: &output)
        }
        #expect(engine.receivers.count == MediaEngine.maximumStreamsPerSection)
        #expect(engine.streamsRefused == 100 - MediaEngine.maximumStreamsPerSection)
        let forgotten = engine.takeSSRCsToForget()
        #expect(forgotten.count == 100 - MediaEngine.maximumStreamsPerSection)
        #expect(Set(forgotten).isDisjoint(with: engine.receivers.keys))
        #expect(engine.takeSSRCsToForget().isEmpty, "taken once")
        // A packet on a payload type no section has binds nothing and is forgotten too.
        let stray = RTPPacket(payloadType: 99, sequenceNumber: 1, timestamp: 0, ssrc: 0x6000_0000, payload: [1])
        engine.receiveRTP(stray.bytes, now: .zero, into: &output)
        #expect(engine.takeSSRCsToForget() == [0x6000_0000])
    }

    @Test func rtcpUnderEverNewSenderSSRCsKeepsAtMostItsLimitAndIsStillRead() throws {
        var engine = MediaEngine(localRTCPSSRC: 7, cname: "test",
                                 ntpMapping: NTPClockMapping(instant: .zero, ntp: NTPTimestamp(wallClock: Date())), now: .zero, seed: 4)
        var output = TransportCore.Output()
        for i in 0..<20 {
            let report = RTCPPacket.serialize([.receiverReport(ReceiverReport(ssrc: 0x7000_0000 + UInt32(i)))])
            engine.receiveRTCP(report, now: .zero, into: &output)
        }
        #expect(engine.rtcpPacketsReceived == 20, "every report is still read")
        #expect(engine.rtcpSendersRefused == 20 - MediaEngine.maximumRTCPOnlySenders)
        let forgotten = engine.takeSSRCsToForget()
        #expect(forgotten == (MediaEngine.maximumRTCPOnlySenders..<20).map { 0x7000_0000 + UInt32($0) })
        // A sender already kept is not refused again.
        engine.receiveRTCP(RTCPPacket.serialize([.receiverReport(ReceiverReport(ssrc: 0x7000_0000))]), now: .zero, into: &output)
        #expect(engine.takeSSRCsToForget().isEmpty)
    }
}

/// Keyframe requests (RFC 4585 PLI, RFC 5104 FIR): a PLI first; a FIR where the sender
/// negotiated `ccm fir` and the PLI brought no keyframe.
@Suite struct MediaEngineKeyframeRequestTests {
    static let ssrc: UInt32 = 0x3333_0001

    private func receiver(fir: Bool) -> MediaEngine {
        var engine = MediaEngine(localRTCPSSRC: 0x4444, cname: "test",
                                 ntpMapping: NTPClockMapping(instant: .zero, ntp: NTPTimestamp(wallClock: Date())), now: .zero, seed: 5)
        engine.configure(senders: [], receivers: [ReceiveStreamConfiguration(
            mid: "0", kind: .video, announcedSSRCs: [Self.ssrc], payloadTypes: [96: ("VP8", 90_000)], midExtensionID: nil,
            nackEnabled: true, firEnabled: fir)])
        return engine
    }

    /// One single-packet VP8 frame (RFC 7741: S=1; P=0 marks a keyframe).
    private func frame(_ sequence: UInt16, keyframe: Bool) -> [UInt8] {
        var bytes: [UInt8] = []
        let payload: [UInt8] = keyframe ? [0x10, 0x00, 0x9d, 0x01, 0x2a, 0x01] : [0x10, 0x01, 0x00, 0x00, 0x00, 0x01]
        RTPPacket(marker: true, payloadType: 96, sequenceNumber: sequence, timestamp: UInt32(sequence) * 3000, ssrc: Self.ssrc,
                  payload: payload[...]).write(to: &bytes)
        return bytes
    }

    /// The keyframe requests in what the engine queued: "PLI" or "FIR#n".
    private func requests(_ engine: inout MediaEngine) throws -> [String] {
        try engine.takeQueuedRTCP().flatMap { try RTCPPacket.parseCompound($0) }.compactMap { packet in
            switch packet {
            case .pictureLossIndication: "PLI"
            case let .fullIntraRequest(fir): "FIR#\(fir.entries.first?.sequenceNumber ?? 0)"
            default: nil
            }
        }
    }

    private static func at(_ ms: Int64) -> Instant { .zero + .milliseconds(ms) }

    @Test("a delta frame with no keyframe: PLI; still none 200 ms later: FIR (sequence numbers counting); a keyframe resets to PLI",
          arguments: [true, false])
    func firAfterAnUnansweredPLI(firNegotiated: Bool) throws {
        var engine = receiver(fir: firNegotiated)
        var output = TransportCore.Output()
        var sequence: UInt16 = 100
        var sent: [String] = []
        // Delta frames only, 33 ms apart, for 500 ms: the decoder needs a keyframe.
        for tick in 0..<15 {
            engine.receiveRTP(frame(sequence, keyframe: false), now: Self.at(Int64(tick) * 33), into: &output)
            sequence &+= 1
            engine.handleTimeout(now: Self.at(Int64(tick) * 33), into: &output)
            sent += try requests(&engine)
        }
        #expect(sent.count == 3, "one request per 200 ms: \(sent)")
        #expect(sent == (firNegotiated ? ["PLI", "FIR#1", "FIR#2"] : ["PLI", "PLI", "PLI"]))
        // The keyframe arrives; a later loss asks with a PLI again.
        engine.receiveRTP(frame(sequence, keyframe: true), now: Self.at(600), into: &output)
        sequence &+= 1
        engine.requestKeyframe(remoteSSRC: Self.ssrc)
        engine.handleTimeout(now: Self.at(800), into: &output)
        #expect(try requests(&engine) == ["PLI"])
        let stream = try #require(engine.receivers[Self.ssrc])
        #expect(stream.firSent == (firNegotiated ? 2 : 0) && stream.pliSent == (firNegotiated ? 2 : 4))
    }
}
