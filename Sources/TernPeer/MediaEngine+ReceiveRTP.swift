import TernCore
import TernMedia
import TernRTP
import TernSDP

/// Receiving RTP: routing to streams, RTX, NACK, frames and audio out.
extension MediaEngine {

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

    mutating func forget(_ ssrc: UInt32) {
        if ssrcsToForget.count < 1024, !ssrcsToForget.contains(ssrc) { ssrcsToForget.append(ssrc) }
    }

    /// The SSRCs to drop SRTP state for since the last call (see `ssrcsToForget`).
    mutating func takeSSRCsToForget() -> [UInt32] {
        guard !ssrcsToForget.isEmpty else { return [] }  // every packet asks: no work when none
        defer { ssrcsToForget = [] }
        return ssrcsToForget
    }

    /// Notes the transport-wide sequence number of any packet (media, RTX or padding probe).
    mutating func recordTransportArrival(_ packet: RTPPacket, now: Instant) {
        guard let map = transportCCMap, let sequenceNumber = packet.transportSequenceNumber(map: map) else { return }
        transportCC.record(transportSequenceNumber: sequenceNumber, at: now)
        transportCCArrivals.add(packet.wireSize + Self.wireOverhead, at: now)
        transportCCMediaSSRC = packet.ssrc
        if nextTransportFeedback == nil { nextTransportFeedback = now + transportFeedbackInterval(now: now) }
    }

    /// The primary stream (SSRC, payload type) an RTX packet repairs, if `packet` is one: its
    /// payload type is an RTX type of a section, and its SSRC is FID-paired with a stream we
    /// receive — or, when the remote announced no pairing, the section has just one stream.
    func rtxOrigin(of packet: RTPPacket) -> (ssrc: UInt32, payloadType: UInt8)? {
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
    mutating func receive(_ packet: RTPPacket, isRetransmission: Bool, now: Instant,
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
    func bind(_ packet: RTPPacket) -> MediaReceiver? {
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
                             nackEnabled: configuration.nackEnabled, firEnabled: configuration.firEnabled)
    }

    func deliver(_ assembled: FrameAssembler.Output, receiver: inout MediaReceiver,
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
            if encoded.isKeyframe { receiver.requestsSinceKeyframe = 0 }
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

    /// Audio the reorder buffer released, in order, as frames and losses to conceal.
    func deliverAudio(_ released: [AudioReorderBuffer.Output], ssrc: UInt32, into output: inout TransportCore.Output) {
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
}
