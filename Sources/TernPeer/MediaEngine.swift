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
    let ntpMapping: NTPClockMapping
    var random: SeededRandom
    var senders: [UInt32: MediaSender] = [:]
    var receivers: [UInt32: MediaReceiver] = [:]
    var receiveConfigurations: [ReceiveStreamConfiguration] = []
    var rtcpSchedule: RTCPIntervalScheduler
    /// RTP waiting to leave at the pace of the bandwidth estimate.
    var pacer: Pacer<PacedRTP>
    /// The stream probe padding goes out on (`paddingStream(among:)`), set with the streams.
    var paddingStreamSSRC: UInt32?
    var queuedRTCP: [[UInt8]] = []
    /// Packets no receive configuration claimed, or that failed to parse.
    var unroutablePackets = 0
    /// New remote SSRCs refused because their section already had `maximumStreamsPerSection`.
    var streamsRefused = 0
    /// SSRCs this engine keeps no receiver for: the transport drops their SRTP state, which
    /// libsrtp created on the packet's arrival (one per SSRC, template-cloned).
    var ssrcsToForget: [UInt32] = []
    /// The most remote streams one m-section binds (a stream, its SSRC changes on renegotiation,
    /// simulcast layers): a peer inventing SSRCs cannot make a receiver, a decoder and an SRTP
    /// context for each.
    static let maximumStreamsPerSection = 8
    /// Sender SSRCs of RTCP that belong to no stream we receive (a receive-only peer reports
    /// under an SSRC of its own), kept up to `maximumRTCPOnlySenders`; libsrtp keeps a stream
    /// context for each, so the SRTP state of any further one is forgotten after its packet.
    var rtcpOnlySenders: Set<UInt32> = []
    static let maximumRTCPOnlySenders = 8
    /// RTCP packets whose sender SSRC was past `maximumRTCPOnlySenders` (their SRTP state dropped).
    var rtcpSendersRefused = 0
    var malformedPackets = 0
    var rtcpPacketsReceived = 0
    /// RTX packets with no original inside (RFC 4588 allows padding-only RTX; libwebrtc sends them
    /// to probe bandwidth): dropped, counted here.
    var rtxPaddingPackets = 0
    /// Transport-wide congestion control, receive side: the arrival of every packet carrying a
    /// transport-wide sequence number goes back to the sender in a feedback packet every
    /// `transportFeedbackInterval(now:)`, so a sender that estimates bandwidth from it (libwebrtc's
    /// GoogCC) can ramp up — without feedback it stays near its start rate.
    var transportCC = TransportWideCCRecorder()
    /// The send-side bandwidth estimate (transport-wide feedback and REMB from the peer).
    var bandwidth: BandwidthEstimator
    /// How the estimate is shared with the data channels on the same transport.
    var linkShare = LinkShare()
    /// Retransmissions as they leave the pacer.
    var retransmissionsSent = RateMeter()
    /// Times the pacer's stale video was dropped for a keyframe (`discardStaleVideo`).
    var staleVideoDiscards = 0
    /// The negotiated transport-wide-cc extension id, as the map TernRTP's typed reader takes.
    var transportCCMap: HeaderExtensionMap?
    var transportCCMediaSSRC: UInt32 = 0
    var nextTransportFeedback: Instant?
    var transportFeedbackSent = 0
    /// Packets with transport-wide numbers as they arrive (bytes), for the feedback interval.
    var transportCCArrivals = RateMeter()

    /// How long until the next feedback: what a report costs on the wire (~68 bytes with
    /// IP, UDP and SRTP) kept to 5 % of what arrived over the last second, between 50 and
    /// 100 ms. libwebrtc's receiver (RemoteEstimatorProxy) takes the same share between 50 and
    /// 250 ms from a rate it is told; the last second's arrivals undercount at the start of a
    /// call, when the sender's probes wait for feedback, so this never goes slower than
    /// libwebrtc's usual 100 ms. Above ~220 kbit/s it is every 50 ms: the sender sees a
    /// bottleneck's queue start 50 ms sooner.
    func transportFeedbackInterval(now: Instant) -> Duration {
        let rate = transportCCArrivals.bitsPerSecond(at: now)
        guard rate > 0 else { return .milliseconds(100) }
        let milliseconds = Double(Self.transportFeedbackWireBytes * 8) / (0.05 * rate) * 1000
        return .milliseconds(Int64(min(max(milliseconds, 50), 100)))
    }
    static let transportFeedbackWireBytes = 68

    init(localRTCPSSRC: UInt32, cname: String, ntpMapping: NTPClockMapping, now: Instant, seed: UInt64,
         bandwidth: BandwidthEstimator.Configuration = BandwidthEstimator.Configuration()) {
        self.bandwidth = BandwidthEstimator(configuration: bandwidth, seed: seed ^ 0x9E37_79B9_7F4A_7C15)
        pacer = Pacer(targetRate: self.bandwidth.targetRate)
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
        paddingStreamSSRC = Self.paddingStream(among: senders)
        // BUNDLE shares one extension id space (RFC 8843 §9.2): the first section's id serves all.
        transportCCMap = receiveConfigurations.lazy.compactMap(\.transportCCExtensionID).first
            .map { HeaderExtensionMap([($0, .transportWideCC)]) }
        rtcpSchedule.senders = sending.isEmpty ? 0 : 1
        rtcpSchedule.weSent = !sending.isEmpty
    }

    // MARK: Timers

    /// True when there is an RTP session to report on: a data-only connection sends no RTCP
    /// (RFC 3550 §6 reports on RTP streams; without one there is nothing to report, and empty
    /// reports and their timers would cost every idle data-only connection CPU for nothing).
    var hasRTPStreams: Bool { !senders.isEmpty || !receivers.isEmpty }

    var nextTimeout: Instant? {
        var next = hasRTPStreams ? rtcpSchedule.nextTransmission : nil
        next = .earliest(next, nextTransportFeedback)
        if !pacer.isEmpty { next = .earliest(next, pacer.nextTimeout) }
        for receiver in receivers.values {
            next = .earliest(next, receiver.nack?.nextTimeout(rtt: nil))
            next = .earliest(next, receiver.assembler?.nextTimeout)
            next = .earliest(next, receiver.audioBuffer?.nextTimeout)
            if receiver.keyframeRequestPending {
                next = .earliest(next, receiver.lastPLI.map { $0 + MediaReceiver.pliInterval } ?? .zero)
            }
        }
        return next
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
                if receiver.firEnabled, receiver.requestsSinceKeyframe > 0 {
                    // A PLI went unanswered: ask with the command the sender must act on
                    // (RFC 5104 §4.3.1: FIR is a command, PLI a hint).
                    receiver.firSequenceNumber &+= 1
                    receiver.firSent += 1
                    let fir = FullIntraRequest(senderSSRC: localRTCPSSRC, entries: [
                        FullIntraRequest.Entry(ssrc: ssrc, sequenceNumber: receiver.firSequenceNumber)])
                    queuedRTCP.append(RTCPPacket.fullIntraRequest(fir).bytes)
                } else {
                    receiver.pliSent += 1
                    let pli = PictureLossIndication(senderSSRC: localRTCPSSRC, mediaSSRC: ssrc)
                    queuedRTCP.append(RTCPPacket.pictureLossIndication(pli).bytes)
                }
                receiver.requestsSinceKeyframe += 1
            }
            receivers[ssrc] = receiver
        }
        if let due = nextTransportFeedback, now >= due {
            nextTransportFeedback = nil
            if let feedback = transportCC.makeFeedback(senderSSRC: localRTCPSSRC, mediaSSRC: transportCCMediaSSRC) {
                queuedRTCP.append(RTCPPacket.transportWideCC(feedback).bytes)
                transportFeedbackSent += 1
            }
            if transportCC.pendingCount > 0 { nextTransportFeedback = now + transportFeedbackInterval(now: now) }
        }
        if hasRTPStreams, rtcpSchedule.expire(now: now) {
            let report = makeReport(now: now)
            rtcpSchedule.didSend(size: report.count, now: now)
            queuedRTCP.append(report)
        }
    }
}
