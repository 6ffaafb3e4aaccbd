import TernCore
import TernMedia
import TernRTP
import TernSDP

/// The RTP/RTCP side of the transport, sans-I/O: turns payload units into RTP packets, routes
/// received packets to their streams, keeps statistics, answers and sends feedback (NACK, PLI),
/// and sends RTCP reports on the RFC 3550 §6.2 schedule. Packets come out unprotected;
/// `TransportCore` protects them with SRTP.
struct MediaEngine {
    /// The SSRC our RTCP reports use when we send no media (RFC 3550 §6.4.2).
    let localRTCPSSRC: UInt32
    let cname: String
    private let ntpMapping: NTPClockMapping
    private var random: SeededRandom
    private(set) var senders: [UInt32: MediaSender] = [:]
    private(set) var receivers: [UInt32: MediaReceiver] = [:]
    private var receiveConfigurations: [ReceiveStreamConfiguration] = []
    private var rtcpSchedule: RTCPIntervalScheduler
    private var queuedRTP: [[UInt8]] = []
    private var queuedRTCP: [[UInt8]] = []
    /// Packets no receive configuration claimed, or that failed to parse.
    private(set) var unroutablePackets = 0
    /// New remote SSRCs refused because their section already had `maximumStreamsPerSection`.
    private(set) var streamsRefused = 0
    /// SSRCs this engine keeps no receiver for: the transport drops their SRTP state, which
    /// libsrtp created on the packet's arrival (one per SSRC, template-cloned).
    private var ssrcsToForget: [UInt32] = []
    /// The most remote streams one m-section binds (a stream, its SSRC changes on renegotiation,
    /// simulcast layers): a peer inventing SSRCs cannot make a receiver, a decoder and an SRTP
    /// context for each.
    static let maximumStreamsPerSection = 8
    /// Sender SSRCs of RTCP that belong to no stream we receive (a receive-only peer reports
    /// under an SSRC of its own), kept up to `maximumRTCPOnlySenders`; libsrtp keeps a stream
    /// context for each, so the SRTP state of any further one is forgotten after its packet.
    private var rtcpOnlySenders: Set<UInt32> = []
    static let maximumRTCPOnlySenders = 8
    /// RTCP packets whose sender SSRC was past `maximumRTCPOnlySenders` (their SRTP state dropped).
    private(set) var rtcpSendersRefused = 0
    private(set) var malformedPackets = 0
    private(set) var rtcpPacketsReceived = 0
    /// RTX packets with no original inside (RFC 4588 allows padding-only RTX; libwebrtc sends them
    /// to probe bandwidth): dropped, counted here.
    private(set) var rtxPaddingPackets = 0
    /// Transport-wide congestion control, receive side: the arrival of every packet carrying a
    /// transport-wide sequence number goes back to the sender in a feedback packet every
    /// `transportFeedbackInterval`, so a sender that estimates bandwidth from it (libwebrtc's
    /// GoogCC) can ramp up — without feedback it stays near its start rate.
    private var transportCC = TransportWideCCRecorder()
    /// The negotiated transport-wide-cc extension id, as the map TernRTP's typed reader takes.
    private var transportCCMap: HeaderExtensionMap?
    private var transportCCMediaSSRC: UInt32 = 0
    private var nextTransportFeedback: Instant?
    private(set) var transportFeedbackSent = 0
    /// libwebrtc sends feedback every 50–250 ms depending on the rate; 100 ms is its usual pace.
    static let transportFeedbackInterval: Duration = .milliseconds(100)

    init(localRTCPSSRC: UInt32, cname: String, ntpMapping: NTPClockMapping, now: Instant, seed: UInt64) {
        self.localRTCPSSRC = localRTCPSSRC
        self.cname = cname
        self.ntpMapping = ntpMapping
        self.random = SeededRandom(seed: seed)
        // WebRTC uses a reduced minimum interval (RFC 8834 §5.1.3 allows it); 1 Mbit/s session.
        var schedule = RTCPIntervalScheduler(configuration: .webRTC(sessionBandwidth: 1_000_000), now: now, seed: seed)
        schedule.members = 2
        self.rtcpSchedule = schedule
    }

    /// Applies the streams a negotiation produced. A sender that stops sending (hold, video
    /// removed) keeps its sequence numbers and statistics for when it resumes: a jump in sequence
    /// numbers would make the receiver's SRTP guess the wrong rollover counter (RFC 3711 §3.3.1).
    /// Receivers stay bound to their SSRCs for the same reason.
    mutating func configure(senders configurations: [SendStreamConfiguration], receivers receiveConfigurations: [ReceiveStreamConfiguration]) {
        let sending = Set(configurations.map(\.ssrc))
        for ssrc in senders.keys where !sending.contains(ssrc) { senders[ssrc]?.isActive = false }
        for configuration in configurations {
            if var existing = senders[configuration.ssrc] {
                existing.configuration = configuration
                existing.useRTX(configuration.rtx, initialSequenceNumber: UInt16(truncatingIfNeeded: random.next()))
                existing.isActive = true
                senders[configuration.ssrc] = existing
            } else {
                senders[configuration.ssrc] = MediaSender(configuration: configuration,
                                                          initialSequenceNumber: UInt16(truncatingIfNeeded: random.next()))
            }
        }
        self.receiveConfigurations = receiveConfigurations
        // BUNDLE shares one extension id space (RFC 8843 §9.2): the first section's id serves all.
        transportCCMap = receiveConfigurations.lazy.compactMap(\.transportCCExtensionID).first
            .map { HeaderExtensionMap([($0, .transportWideCC)]) }
        rtcpSchedule.senders = sending.isEmpty ? 0 : 1
        rtcpSchedule.weSent = !sending.isEmpty
    }

    // MARK: Sending

    /// Packetizes `units` on the stream with `ssrc` and queues the packets.
    mutating func send(_ units: [RTPPayloadUnit], ssrc: UInt32, now: Instant) -> Bool {
        guard var sender = senders[ssrc], sender.isActive else { return false }
        for unit in units {
            let packet = sender.makePacket(unit)
            sender.statistics.recordSent(packet, at: now)
            if sender.configuration.nackEnabled { sender.history.store(packet, at: now) }
            queuedRTP.append(Self.serialize(packet))
        }
        sender.lastSentAt = now
        senders[ssrc] = sender
        return true
    }

    /// The packet's bytes in a buffer with room for the SRTP trailer, so protecting it in place
    /// does not reallocate (one allocation per packet on the send path).
    private static func serialize(_ packet: RTPPacket) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(packet.wireSize + srtpTrailerRoom)
        packet.write(to: &bytes)
        return bytes
    }

    /// Room for any SRTP trailer SRTPSession appends (at most 20 bytes) with a wide margin.
    static let srtpTrailerRoom = 144

    mutating func takeQueuedRTP() -> [[UInt8]] {
        defer { queuedRTP.removeAll(keepingCapacity: true) }
        return queuedRTP
    }

    mutating func takeQueuedRTCP() -> [[UInt8]] {
        defer { queuedRTCP.removeAll(keepingCapacity: true) }
        return queuedRTCP
    }

    /// Drops queued packets (no SRTP keys yet: media before DTLS is up is not sent).
    mutating func discardQueued() {
        queuedRTP.removeAll(keepingCapacity: true)
        queuedRTCP.removeAll(keepingCapacity: true)
    }

    // MARK: Receiving RTP

    mutating func receiveRTP(_ bytes: [UInt8], now: Instant, into output: inout TransportCore.Output) {
        let packet: RTPPacket
        do { packet = try RTPPacket(parsing: bytes) } catch {
            malformedPackets += 1
            return
        }
        recordTransportArrival(packet, now: now)
        if receivers[packet.ssrc] == nil, let origin = rtxOrigin(of: packet) {
            // A retransmission on the RTX stream (RFC 4588 §4): the original packet is inside.
            guard packet.payload.count > 2 else {
                rtxPaddingPackets += 1
                return
            }
            guard let original = try? RTXDecoder.unwrap(packet, originalSSRC: origin.ssrc,
                                                         originalPayloadType: origin.payloadType) else {
                malformedPackets += 1
                return
            }
            receivers[origin.ssrc]?.retransmissionsReceived += 1
            receivers[origin.ssrc]?.retransmittedBytesReceived += UInt64(original.payload.count)
            receive(original, isRetransmission: true, now: now, into: &output)
            return
        }
        receive(packet, isRetransmission: false, now: now, into: &output)
    }

    private mutating func forget(_ ssrc: UInt32) {
        if ssrcsToForget.count < 1024, !ssrcsToForget.contains(ssrc) { ssrcsToForget.append(ssrc) }
    }

    /// The SSRCs to drop SRTP state for since the last call (see `ssrcsToForget`).
    mutating func takeSSRCsToForget() -> [UInt32] {
        guard !ssrcsToForget.isEmpty else { return [] }  // every packet asks: no work when none
        defer { ssrcsToForget = [] }
        return ssrcsToForget
    }

    /// Notes the transport-wide sequence number of any packet (media, RTX or padding probe).
    private mutating func recordTransportArrival(_ packet: RTPPacket, now: Instant) {
        guard let map = transportCCMap, let sequenceNumber = packet.transportSequenceNumber(map: map) else { return }
        transportCC.record(transportSequenceNumber: sequenceNumber, at: now)
        transportCCMediaSSRC = packet.ssrc
        if nextTransportFeedback == nil { nextTransportFeedback = now + Self.transportFeedbackInterval }
    }

    /// The primary stream (SSRC, payload type) an RTX packet repairs, if `packet` is one: its
    /// payload type is an RTX type of a section, and its SSRC is FID-paired with a stream we
    /// receive — or, when the remote announced no pairing, the section has just one stream.
    private func rtxOrigin(of packet: RTPPacket) -> (ssrc: UInt32, payloadType: UInt8)? {
        for configuration in receiveConfigurations {
            guard let apt = configuration.rtxPayloadTypes[packet.payloadType] else { continue }
            if let primary = configuration.rtxSSRCs[packet.ssrc] {
                return receivers[primary] != nil ? (primary, apt) : nil
            }
            guard configuration.rtxSSRCs.isEmpty else { continue }
            // No FID pairing announced: usable only if the section has exactly one such stream.
            var only: UInt32?, count = 0
            for (ssrc, receiver) in receivers where receiver.info.mid == configuration.mid && receiver.payloadType == apt {
                only = ssrc
                count += 1
            }
            if count == 1, let only { return (only, apt) }
        }
        return nil
    }

    /// One media packet (received as sent, or recovered from RTX) for its stream.
    private mutating func receive(_ packet: RTPPacket, isRetransmission: Bool, now: Instant,
                                  into output: inout TransportCore.Output) {
        if receivers[packet.ssrc] == nil {
            guard let receiver = bind(packet) else {
                unroutablePackets += 1
                forget(packet.ssrc)
                return
            }
            guard receivers.values.count(where: { $0.info.mid == receiver.info.mid }) < Self.maximumStreamsPerSection else {
                streamsRefused += 1
                forget(packet.ssrc)
                return
            }
            receivers[packet.ssrc] = receiver
            output.events.append(.remoteStreamStarted(receiver.info))
        }
        guard var receiver = receivers[packet.ssrc] else { return }
        guard packet.payloadType == receiver.payloadType else {
            unroutablePackets += 1  // RTX or another codec: not decoded by this receiver
            return
        }
        _ = receiver.statistics.record(packet, at: now, isRetransmission: isRetransmission)
        switch receiver.info.kind {
        case .audio:
            if var buffer = receiver.audioBuffer {
                let released = buffer.insert(packet, at: now)
                receiver.audioBuffer = buffer
                deliverAudio(released, ssrc: packet.ssrc, into: &output)
            }
        case .video:
            receiver.nack?.received(sequenceNumber: packet.sequenceNumber, at: now)
            if var assembler = receiver.assembler {
                let assembled = assembler.insert(packet, at: now)
                receiver.assembler = assembler
                deliver(assembled, receiver: &receiver, into: &output)
            }
        }
        receivers[packet.ssrc] = receiver
    }

    /// Finds the receive configuration a new SSRC belongs to: announced SSRC first, then the mid
    /// header extension (RFC 8843 §9.2), then a payload type only one section uses.
    private func bind(_ packet: RTPPacket) -> MediaReceiver? {
        let candidates = receiveConfigurations.filter { $0.payloadTypes[packet.payloadType] != nil }
        var chosen = receiveConfigurations.first { $0.announcedSSRCs.contains(packet.ssrc) }
        if chosen == nil, let header = packet.headerExtension {
            chosen = candidates.first { configuration in
                guard let id = configuration.midExtensionID, let value = header.value(forID: id) else { return false }
                return String(decoding: value, as: UTF8.self) == configuration.mid
            }
        }
        if chosen == nil {
            // Only sections that have not yet bound a stream may claim one by payload type.
            let unbound = candidates.filter { configuration in
                !receivers.values.contains { $0.info.mid == configuration.mid }
            }
            if unbound.count >= 1 { chosen = unbound.first }
        }
        guard let configuration = chosen, let codec = configuration.payloadTypes[packet.payloadType] else { return nil }
        let info = RemoteStreamInfo(mid: configuration.mid, kind: configuration.kind, ssrc: packet.ssrc,
                                    codecName: codec.name, clockRate: codec.clockRate)
        return MediaReceiver(info: info, payloadType: packet.payloadType, localSSRC: localRTCPSSRC,
                             nackEnabled: configuration.nackEnabled)
    }

    private func deliver(_ assembled: FrameAssembler.Output, receiver: inout MediaReceiver,
                         into output: inout TransportCore.Output) {
        receiver.framesDropped += UInt64(assembled.droppedFrames)
        // Frames the assembler gave up on come before the frames it released in this output.
        if assembled.keyframeNeeded || assembled.droppedFrames > 0 {
            receiver.keyframeRequestPending = true
            receiver.awaitingKeyframe = true
        }
        for frame in assembled.frames {
            receiver.depacketizer.reset()
            var encoded: EncodedVideoFrame?
            for packet in frame.packets {
                let unit = RTPPayloadUnit(payload: Array(packet.payload), marker: packet.marker,
                                          timestamp: packet.timestamp, sequenceNumber: packet.sequenceNumber)
                if let complete = try? receiver.depacketizer.push(unit) { encoded = complete }
            }
            guard let encoded else {
                receiver.framesDropped += 1
                receiver.keyframeRequestPending = true
                receiver.awaitingKeyframe = true
                continue
            }
            if receiver.awaitingKeyframe && !encoded.isKeyframe {
                receiver.framesSkippedForKeyframe += 1
                receiver.keyframeRequestPending = true
                continue
            }
            receiver.awaitingKeyframe = false
            receiver.framesAssembled += 1
            output.events.append(.videoFrame(ssrc: receiver.info.ssrc, encoded))
        }
    }

    /// Marks that the decoder of `ssrc` cannot go on without a keyframe (sends a PLI and holds
    /// delta frames back until the keyframe arrives).
    mutating func requestKeyframe(remoteSSRC ssrc: UInt32) {
        receivers[ssrc]?.keyframeRequestPending = true
        receivers[ssrc]?.awaitingKeyframe = true
    }

    // MARK: Receiving RTCP

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
                    sender.statistics.recordRetransmission(payloadBytes: packet.payload.count)
                    queuedRTP.append(Self.serialize(packet))
                }
                senders[nack.mediaSSRC] = sender
            case let .pictureLossIndication(pli):
                senders[pli.mediaSSRC]?.statistics.recordPLI()
                output.events.append(.keyframeRequested(ssrc: pli.mediaSSRC))
            case let .fullIntraRequest(fir):
                for entry in fir.entries where senders[entry.ssrc] != nil {
                    output.events.append(.keyframeRequested(ssrc: entry.ssrc))
                }
            default:
                break
            }
        }
    }

    private mutating func apply(_ blocks: [ReportBlock], now: Instant) {
        for block in blocks {
            senders[block.ssrc]?.statistics.recordReportBlock(block, at: now, clock: ntpMapping)
        }
    }

    // MARK: Timers

    /// True when there is an RTP session to report on: a data-only connection sends no RTCP
    /// (RFC 3550 §6 reports on RTP streams; without one there is nothing to report, and 200
    /// idle data-only connections spent ~40 % of a core on empty reports and their timers).
    private var hasRTPStreams: Bool { !senders.isEmpty || !receivers.isEmpty }

    var nextTimeout: Instant? {
        var deadlines = hasRTPStreams ? [rtcpSchedule.nextTransmission] : []
        if let feedback = nextTransportFeedback { deadlines.append(feedback) }
        for receiver in receivers.values {
            if let nack = receiver.nack?.nextTimeout(rtt: nil) { deadlines.append(nack) }
            if let assembler = receiver.assembler?.nextTimeout { deadlines.append(assembler) }
            if let audio = receiver.audioBuffer?.nextTimeout { deadlines.append(audio) }
            if receiver.keyframeRequestPending { deadlines.append(receiver.lastPLI.map { $0 + MediaReceiver.pliInterval } ?? .zero) }
        }
        return deadlines.min()
    }

    mutating func handleTimeout(now: Instant, into output: inout TransportCore.Output) {
        for ssrc in receivers.keys.sorted() {
            guard var receiver = receivers[ssrc] else { continue }
            if var assembler = receiver.assembler {
                let assembled = assembler.poll(now: now)
                receiver.assembler = assembler
                deliver(assembled, receiver: &receiver, into: &output)
            }
            if var buffer = receiver.audioBuffer {
                let released = buffer.poll(now: now)
                receiver.audioBuffer = buffer
                deliverAudio(released, ssrc: ssrc, into: &output)
            }
            if var nack = receiver.nack {
                let rtt = senders.values.compactMap(\.statistics.roundTripTime).min()
                if let packet = nack.poll(now: now, rtt: rtt) {
                    queuedRTCP.append(RTCPPacket.genericNACK(packet).bytes)
                }
                if nack.takeKeyframeRequest() { receiver.keyframeRequestPending = true }
                receiver.nack = nack
            }
            if receiver.keyframeRequestPending,
               receiver.lastPLI.map({ now - $0 >= MediaReceiver.pliInterval }) ?? true {
                receiver.keyframeRequestPending = false
                receiver.lastPLI = now
                receiver.pliSent += 1
                let pli = PictureLossIndication(senderSSRC: localRTCPSSRC, mediaSSRC: ssrc)
                queuedRTCP.append(RTCPPacket.pictureLossIndication(pli).bytes)
            }
            receivers[ssrc] = receiver
        }
        if let due = nextTransportFeedback, now >= due {
            nextTransportFeedback = nil
            if let feedback = transportCC.makeFeedback(senderSSRC: localRTCPSSRC, mediaSSRC: transportCCMediaSSRC) {
                queuedRTCP.append(RTCPPacket.transportWideCC(feedback).bytes)
                transportFeedbackSent += 1
            }
            if transportCC.pendingCount > 0 { nextTransportFeedback = now + Self.transportFeedbackInterval }
        }
        if hasRTPStreams, rtcpSchedule.expire(now: now) {
            let report = makeReport(now: now)
            rtcpSchedule.didSend(size: report.count, now: now)
            queuedRTCP.append(report)
        }
    }

    /// Audio the reorder buffer released, in order, as frames and losses to conceal.
    private func deliverAudio(_ released: [AudioReorderBuffer.Output], ssrc: UInt32, into output: inout TransportCore.Output) {
        for item in released {
            switch item {
            case let .packet(packet):
                let unit = RTPPayloadUnit(payload: Array(packet.payload), marker: packet.marker,
                                          timestamp: packet.timestamp, sequenceNumber: packet.sequenceNumber)
                if let frame = try? OpusPayloader.frame(from: unit) {
                    output.events.append(.audioFrame(ssrc: ssrc, frame))
                }
            case let .lost(count):
                output.events.append(.audioLoss(ssrc: ssrc, count: count))
            }
        }
    }

    /// A compound RTCP packet (RFC 3550 §6.1): an SR per sending stream (or one RR), report
    /// blocks for every received stream, and an SDES CNAME.
    private mutating func makeReport(now: Instant) -> [UInt8] {
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
