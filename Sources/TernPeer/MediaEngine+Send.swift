import TernCore
import TernMedia
import TernRTP
import TernSDP

/// An RTP packet waiting in the pacer, serialized; its transport-wide sequence number (at
/// `transportSequenceOffset`, when numbered) is filled in as it leaves.
struct PacedRTP: Sendable {
    var bytes: [UInt8]
    var transportSequenceOffset: Int?
    /// For a retransmission: the stream and the sequence number of the packet it repeats (its
    /// history learns when it left, `SendHistory.retransmissionLeft`).
    var retransmissionOf: (ssrc: UInt32, sequenceNumber: UInt16)?
}

/// Sending: payload units in, RTP packets through the pacer, out for SRTP.
extension MediaEngine {

    /// Packetizes `units` on the stream with `ssrc` and queues the packets in the pacer.
    mutating func send(_ units: [RTPPayloadUnit], ssrc: UInt32, now: Instant) -> Bool {
        guard var sender = senders[ssrc], sender.isActive else { return false }
        let priority: Pacer<PacedRTP>.Priority = sender.configuration.kind == .audio ? .audio : .video
        for unit in units {
            // The transport-wide number is given as the packet leaves the pacer (`takeQueuedRTP`).
            let packet = sender.makePacket(unit)
            sender.statistics.recordSent(packet, at: now)
            if sender.configuration.nackEnabled { sender.history.store(packet, at: now) }
            pace(packet, transportSequenceOffset: sender.transportSequenceOffset, priority: priority, now: now)
        }
        sender.lastSentAt = now
        senders[ssrc] = sender
        if !bandwidth.probes.hasStarted, paddingStreamSSRC != nil {
            bandwidth.mediaStarted(now: now, probingStartRate: Self.probingStartRate)
        }
        return true
    }

    /// Where probing starts when the path can be probed (libwebrtc's default start rate).
    static let probingStartRate = 300_000.0
    /// Padding per probe packet (RTP padding's 255-byte maximum) and its size on the wire with
    /// the RTP header and extensions (32 bytes) and `wireOverhead`.
    static let probePaddingSize = 255
    static let probePaddingWireBytes = probePaddingSize + 32 + wireOverhead

    /// The video stream probes pad on: one with RTX (padding-only RTX packets, which receivers
    /// count and drop) and transport-wide numbers (so the padding is fed back). Nil: no probing.
    static func paddingStream(among senders: [UInt32: MediaSender]) -> UInt32? {
        senders.keys.sorted().first { ssrc in
            guard let sender = senders[ssrc] else { return false }
            return sender.isActive && sender.history.rtx != nil && sender.transportSequenceOffset != nil
        }
    }

    /// A padding-only RTX packet for a probe, with the stream's header, numbered as it leaves.
    private mutating func makeProbePadding() -> PacedRTP? {
        guard let ssrc = paddingStreamSSRC, var sender = senders[ssrc], var rtx = sender.history.rtx else { return nil }
        let packet = rtx.padding(size: Self.probePaddingSize, timestamp: sender.lastRTPTimestamp,
                                 headerExtension: sender.headerExtension)
        sender.history.rtx = rtx
        senders[ssrc] = sender
        return PacedRTP(bytes: Self.serialize(packet), transportSequenceOffset: sender.transportSequenceOffset)
    }

    /// Queues a retransmission (it leaves before new video). The packet kept in the history has
    /// the stream's header with its transport-wide number still 0, so it is numbered afresh as
    /// it leaves, as the original was.
    mutating func resend(_ packet: RTPPacket, of original: (ssrc: UInt32, sequenceNumber: UInt16), transportCCExtensionID id: UInt8?,
                         now: Instant) {
        pace(packet, transportSequenceOffset: id.flatMap { packet.serializedOffset(ofExtensionElement: $0) },
             priority: .retransmission, retransmissionOf: original, now: now)
    }

    /// What a packet adds on the wire beyond its RTP bytes: the SRTP tag (~16 bytes) and the
    /// IPv4 and UDP headers (28). The estimate, the pacer and the link share count whole
    /// datagrams, as libwebrtc's send-side estimation does (its "with overhead" default): at a
    /// few hundred kbit/s, 50 audio packets a second are a fifth of their own rate in headers.
    static let wireOverhead = 16 + 28

    /// Retransmissions sent over the last second, bits per second: the encoders leave room for them.
    func retransmissionRate(now: Instant) -> Double {
        retransmissionsSent.bitsPerSecond(at: now)
    }

    private mutating func pace(_ packet: RTPPacket, transportSequenceOffset: Int?, priority: Pacer<PacedRTP>.Priority,
                               retransmissionOf original: (ssrc: UInt32, sequenceNumber: UInt16)? = nil, now: Instant) {
        let paced = PacedRTP(bytes: Self.serialize(packet), transportSequenceOffset: transportSequenceOffset,
                             retransmissionOf: original)
        // Its size on the wire (`wireOverhead`); a full queue counts the drop (and a dropped
        // retransmission holds its packet back until the history's `maxAge`).
        pacer.enqueue(paced, size: paced.bytes.count + Self.wireOverhead, priority: priority, now: now)
    }

    /// The packet's bytes in a buffer with room for the SRTP trailer, so protecting it in place
    /// does not reallocate (one allocation per packet on the send path).
    static func serialize(_ packet: RTPPacket) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(packet.wireSize + srtpTrailerRoom)
        packet.write(to: &bytes)
        return bytes
    }

    /// Room for any SRTP trailer SRTPSession appends (at most 20 bytes) with a wide margin.
    static let srtpTrailerRoom = 144

    /// The RTP packets the pacer lets go at `now` (at 2.5 × the bandwidth estimate, or a probe
    /// cluster's rate while one runs), each given its transport-wide sequence number and send
    /// time as it leaves; probe padding is built here.
    mutating func takeQueuedRTP(now: Instant) -> [[UInt8]] {
        let canPad = paddingStreamSSRC != nil
        for cluster in bandwidth.takeProbeClusters() where canPad { pacer.startProbe(cluster) }
        for cluster in bandwidth.takeEndedClusters() { pacer.endProbe(cluster) }
        pacer.setTargetRate(bandwidth.targetRate)
        pacer.rateCeiling = bandwidth.pacingCeiling(now: now)
        pacer.windowRoom = bandwidth.windowRoom(now: now)
        let out = pacer.poll(now: now, paddingPacketBytes: canPad ? Self.probePaddingWireBytes : 0)
        guard !out.isEmpty else { return [] }
        var packets: [[UInt8]] = []
        packets.reserveCapacity(out.count)
        for item in out {
            var paced: PacedRTP, cluster: Int?
            switch item {
            case let .packet(packet, probeCluster):
                paced = packet
                cluster = probeCluster
            case let .padding(_, probeCluster):
                guard let padding = makeProbePadding() else { continue }
                paced = padding
                cluster = probeCluster
            }
            let wireSize = paced.bytes.count + Self.wireOverhead
            if let offset = paced.transportSequenceOffset, offset + 1 < paced.bytes.count {
                let sequence = bandwidth.packetSent(size: wireSize, now: now, probeCluster: cluster)
                paced.bytes[offset] = UInt8(sequence >> 8)
                paced.bytes[offset + 1] = UInt8(truncatingIfNeeded: sequence)
            }
            linkShare.mediaSent(wireSize, now: now)
            if let original = paced.retransmissionOf {
                retransmissionsSent.add(wireSize, at: now)
                senders[original.ssrc]?.history.retransmissionLeft(sequenceNumber: original.sequenceNumber, at: now)
            }
            packets.append(paced.bytes)
        }
        return packets
    }

    /// The part of the estimate the encoders share: the retransmissions of the last second come
    /// off it first (libwebrtc takes its protection overhead off the encoders' budget the same
    /// way: a lossy bottleneck's repairs must not keep its queue full), then the congestion
    /// window's pushback, then `LinkShare`'s media part while data channels are held back.
    func encoderTarget(now: Instant) -> Double {
        let estimate = max(0, bandwidth.targetRate - retransmissionRate(now: now)) * pacerPushback
        let target = bandwidth.isInformed(now: now) ? bandwidth.pushedBack(estimate) : estimate
        guard dataChannelsLimited(now: now) else { return target }
        return linkShare.mediaTarget(target, now: now)
    }

    /// What the encoders get of the estimate while video waits in the pacer: less by the share
    /// of `pacerDrainTime` the backlog takes to send at the estimate, at least half. After the
    /// capacity falls, what the encoders made at the old rate waits here, and at a target just
    /// under the path's it would keep the bottleneck's queue at the congestion window for
    /// seconds; below it by the backlog, it drains in about `pacerDrainTime` (libwebrtc pushes
    /// its encoders back on the pacer's queue the same way).
    var pacerPushback: Double {
        max(0.5, 1 - videoBacklogSeconds / Self.pacerDrainTime.seconds)
    }

    /// How long the video and retransmissions waiting in the pacer take to send at the estimate.
    var videoBacklogSeconds: Double {
        Double(pacer.queuedBytes(.video) + pacer.queuedBytes(.retransmission)) * 8 / max(bandwidth.targetRate, 1)
    }
    static let pacerDrainTime: Duration = .seconds(1)

    /// Whether the pacer holds so much video that a new frame should not be encoded: more than
    /// `maximumVideoBacklog` of sending at the estimate waits in its video and
    /// retransmission queues. While the congestion window holds video back, or after an
    /// encoder overshot a capacity drop, frames keep coming at the old pace; queued, they keep
    /// the bottleneck full at its new capacity for as long as they take to drain, and they are
    /// stale when they leave. A frame not encoded costs nothing to the receiver (the encoder
    /// never referenced it); a frame dropped from the queue would cost a keyframe.
    func videoBacklogged(now: Instant) -> Bool {
        videoBacklogSeconds > Self.maximumVideoBacklog.seconds
    }

    /// A keyframe at 900 % of an average frame (`VP8E_SET_MAX_INTRA_BITRATE_PCT`) is 300 ms of
    /// the video's target, about 250 ms of the estimate; the check runs before the next frame,
    /// 33 ms later, when the pacer (at 2.5 × the estimate) has sent part of it.
    static let maximumVideoBacklog: Duration = .milliseconds(250)

    /// Drops the video and retransmissions waiting in the pacer when they would take more than
    /// `staleVideoBacklog` to send at the estimate, forgets what the video streams sent, and asks
    /// their encoders for a keyframe. After the path's capacity falls several times over (a
    /// 2.5 → 0.5 Mbit/s step), the frames made at the old rate and the repairs of what the full
    /// bottleneck dropped wait here: sent, they keep the queue full for seconds and show the
    /// receiver pictures seconds old, while no new frame is encoded (`videoBacklogged`). A
    /// keyframe at the new rate costs a fraction of that. The receiver sees the gap as loss, its
    /// requests for it are refused (`SendHistory.forgetAll`), and it decodes from the keyframe.
    mutating func discardStaleVideo(now: Instant, into output: inout TransportCore.Output) {
        guard videoBacklogSeconds > Self.staleVideoBacklog.seconds else { return }
        staleVideoDiscards &+= 1
        pacer.discard(.video)
        pacer.discard(.retransmission)
        for (ssrc, sender) in senders where sender.configuration.kind == .video && sender.isActive {
            senders[ssrc]?.history.forgetAll()
            output.events.append(.keyframeRequested(ssrc: ssrc))
        }
    }

    /// A second of sending: four times what stops the encoders (`maximumVideoBacklog`), so a
    /// keyframe or a short hold of the congestion window never comes near it.
    static let staleVideoBacklog: Duration = .seconds(1)

    /// Whether data channels are held to a share of the estimate now: the estimate follows the
    /// path's queue (transport-wide feedback), its delay-based part has found the path narrower
    /// than its maximum (`BandwidthEstimator.queueBasedRate`: a bound that random loss drove
    /// down does not hold back SCTP, which answers loss itself), and the path queued within the
    /// last 10 s (`pathQueues`: a lossy, jittery path without a bottleneck leaves SCTP alone).
    func dataChannelsLimited(now: Instant) -> Bool {
        bandwidth.isInformed(now: now) && bandwidth.foundBottleneck && bandwidth.pathQueues(now: now)
    }

    /// The data channels' send limit now, bytes per second, or nil when they are not held back.
    func dataChannelLimit(now: Instant) -> Double? {
        guard dataChannelsLimited(now: now) else { return nil }
        return linkShare.dataLimit(bandwidth.queueBasedRate, mediaWantsMore: bandwidth.encodersLimited, now: now) / 8
    }

    mutating func takeQueuedRTCP() -> [[UInt8]] {
        defer { queuedRTCP.removeAll(keepingCapacity: true) }
        return queuedRTCP
    }

    /// Drops queued packets (no SRTP keys yet: media before DTLS is up is not sent).
    mutating func discardQueued() {
        pacer.discardQueued()
        queuedRTCP.removeAll(keepingCapacity: true)
    }
}
