import Synchronization
import TernCore
public import TernMedia
public import TernSDP

/// Sends one local media stream (W3C `RTCRtpSender`): raw frames through Tern's encoders
/// (Opus for audio, VP8 for video) or frames the application already encoded.
///
/// Encoding runs on the calling thread; packetizing, SRTP and sending take the transport's lock
/// only briefly. Frames sent before the transport is connected are dropped (and counted), as a
/// browser drops them.
public final class RTPSender: Sendable {
    /// Audio or video.
    public let kind: MediaKind
    /// The SSRC of this stream (announced in `a=ssrc`).
    public let ssrc: UInt32
    /// Video: the SSRC retransmissions go out on when RTX is negotiated (RFC 4588 §8.3,
    /// announced as `a=ssrc-group:FID ssrc rtxSSRC`). Nil for audio, which is not retransmitted.
    public let rtxSSRC: UInt32?

    private struct State {
        var audioEncoder: OpusAudioEncoder?
        var videoEncoder: VP8Encoder?
        var videoEncoderSize: (width: Int, height: Int)?
        var ladder = DegradationLadder()
        /// Video: source frames given to `send(video:)`, for the ladder's frame interval.
        var sourceFrames = 0
        var rateAdjuster = EncoderRateAdjuster()
        var packetizer = VP8Packetizer(maxPayloadSize: 1100)
        var opusPayloader = OpusPayloader()
        var enabled = true
        var framesSent = 0
        var framesDropped = 0
        var keyframeRequested = false
        /// The share of the bandwidth estimate this stream's encoder should follow
        /// (`BitrateAllocation`), and the rate the encoder was last given (bit/s).
        var allocation: BitrateAllocation?
        var appliedBitrate: Int?
        /// Video: the most the encoder may send for the pictures it is given, kbit/s
        /// (`videoBitrateKbps`, or the default for their size; before the first picture, and for
        /// frames the application encodes, `VP8EncoderConfiguration.defaultBitrateKbps`).
        var ceilingKbps: Int
        /// Audio: the newest frame dropped because the transport was not yet connected, sent
        /// the moment it connects (see `transportConnected`).
        var heldAudio: [RTPPayloadUnit]?
        var heldAt: ContinuousClock.Instant?
        /// Video: when the frames of the last second were encoded (W3C `framesPerSecond`).
        var encodedAt: [Instant] = []
        /// Video: what limits the encoder now (W3C `qualityLimitationReason`), since when, and the
        /// seconds spent in each reason before that (`qualityLimitationDurations`).
        var limitation = QualityLimitation.none
        var limitationSince: Instant?
        var limitationDurations: [QualityLimitation: Double] = [:]
    }

    /// W3C `RTCQualityLimitationReason`; Tern's encoders are limited only by bandwidth.
    enum QualityLimitation: String, CaseIterable {
        case none, cpu, bandwidth, other
    }

    /// What the video encoder sends (W3C `outbound-rtp` fields).
    struct VideoSending {
        var framesPerSecond: Double
        var frameWidth: Int?
        var frameHeight: Int?
        var qualityLimitationReason: String
        var qualityLimitationDurations: [String: Double]
    }

    private let state: Mutex<State>
    private let transport = Mutex<TransportDriver?>(nil)
    private let audioBitrate: Int
    private let videoBitrateKbps: Int?
    private let clock: any MonotonicClock = SystemClock()

    /// `videoBitrateKbps` nil: the ceiling follows the size of the pictures sent
    /// (`VP8EncoderConfiguration.defaultMaximumBitrateKbps`).
    init(kind: MediaKind, ssrc: UInt32, rtxSSRC: UInt32? = nil, audioBitrate: Int, videoBitrateKbps: Int?) {
        self.kind = kind
        self.ssrc = ssrc
        self.rtxSSRC = rtxSSRC
        self.audioBitrate = audioBitrate
        self.videoBitrateKbps = videoBitrateKbps
        self.state = Mutex(State(ceilingKbps: videoBitrateKbps ?? VP8EncoderConfiguration.defaultBitrateKbps))
    }

    /// Whether frames are sent. A disabled sender (camera off, W3C `track.enabled = false`)
    /// keeps its negotiated direction and sends nothing.
    public var isEnabled: Bool {
        get { state.withLock { $0.enabled } }
        set { state.withLock { $0.enabled = newValue } }
    }

    /// Frames handed to the transport so far.
    public var framesSent: Int { state.withLock { $0.framesSent } }

    /// Frames dropped because the sender was disabled or the transport not yet connected.
    public var framesDropped: Int { state.withLock { $0.framesDropped } }

    /// Encodes and sends 20 ms of 48 kHz mono PCM (960 samples) as one Opus packet (RFC 7587).
    public func send(audio pcm: [Int16]) throws(PeerConnectionError) {
        guard kind == .audio else { throw .invalidState("send(audio:) on a \(kind.rawValue) sender") }
        guard isEnabled else { return countDropped() }
        let frame: EncodedAudioFrame
        do throws(OpusError) {
            frame = try state.withLock { state throws(OpusError) -> EncodedAudioFrame in
                let encoder: OpusAudioEncoder
                if let existing = state.audioEncoder {
                    encoder = existing
                } else {
                    var configuration = OpusConfiguration()
                    configuration.bitrate = audioBitrate
                    encoder = try OpusAudioEncoder(configuration: configuration)
                    state.audioEncoder = encoder
                }
                let target = state.allocation?.audioBitsPerSecond ?? audioBitrate
                if Self.differsEnough(target, state.appliedBitrate ?? audioBitrate) {
                    try encoder.setBitrate(target)
                    state.appliedBitrate = target
                }
                return try encoder.encode(pcm)
            }
        } catch {
            throw .media("Opus: \(error)")
        }
        send(encodedAudio: frame)
    }

    /// Sends one already-encoded Opus frame.
    public func send(encodedAudio frame: EncodedAudioFrame) {
        guard let unit = state.withLock({ $0.opusPayloader.payload(for: frame) }) else { return }
        deliver([unit])
    }

    /// Encodes and sends one I420 frame through VP8 (RFC 7741 packetization).
    public func send(video frame: I420Frame) throws(PeerConnectionError) {
        guard kind == .video else { throw .invalidState("send(video:) on a \(kind.rawValue) sender") }
        guard isEnabled else { return countDropped() }
        // The pacer still holds a backlog of earlier frames (`MediaEngine.videoBacklogged`):
        // this one is not encoded.
        if let driver = transport.withLock({ $0 }), driver.perform({ core, now in core.media.videoBacklogged(now: now) }) {
            let now = clock.now()
            state.withLock { state in
                state.sourceFrames &+= 1
                Self.skipFrame(at: now, in: &state)
            }
            return
        }
        let encoded: EncodedVideoFrame?
        do throws(VP8Error) {
            encoded = try state.withLock { state throws(VP8Error) -> EncodedVideoFrame? in
                // Follow the bandwidth estimate (never above the configured rate), with a frame
                // rate and picture small enough for that rate (`DegradationLadder`), and the
                // encoder set below it while it overshoots (`EncoderRateAdjuster`).
                let now = clock.now()
                state.ceilingKbps = videoBitrateKbps
                    ?? VP8EncoderConfiguration.defaultMaximumBitrateKbps(width: frame.width, height: frame.height)
                let ceiling = state.ceilingKbps
                let target = min(state.allocation?.videoKbps ?? ceiling, ceiling)
                let step = state.ladder.update(targetKbps: target, width: frame.width, height: frame.height, now: now)
                defer { state.sourceFrames &+= 1 }
                if state.sourceFrames % step.frameInterval != 0, state.videoEncoder != nil {
                    // A frame the lower frame rate leaves out.
                    Self.skipFrame(at: now, in: &state)
                    return nil
                }
                let divisor = step.divisor
                let picture = frame.downscaled(by: divisor)
                let encoder: VP8Encoder
                if let existing = state.videoEncoder, let size = state.videoEncoderSize,
                   size == (picture.width, picture.height) {
                    encoder = existing
                } else {
                    var configuration = VP8EncoderConfiguration(width: picture.width, height: picture.height, bitrateKbps: target)
                    configuration.dropsFramesToHoldBitrate = true
                    configuration.maximumKeyframeBitratePercent = 900
                    // The RTP timestamps go on from the previous encoder's (a new size is a new
                    // encoder, not a new stream).
                    encoder = try VP8Encoder(configuration: configuration, initialTimestamp: state.videoEncoder?.nextTimestamp ?? 0)
                    state.videoEncoder = encoder
                    state.videoEncoderSize = (picture.width, picture.height)
                    state.appliedBitrate = target * 1000
                }
                let adjusted = Int(state.rateAdjuster.adjusted(Double(target) * 1000)
                                   * state.ladder.encoderRateShare(now: now) / 1000)
                if Self.differsEnough(adjusted * 1000, state.appliedBitrate ?? ceiling * 1000) {
                    try encoder.setBitrate(kbps: adjusted)
                    state.appliedBitrate = adjusted * 1000
                }
                let limited = target < ceiling || divisor > 1 || step.frameInterval > 1
                Self.recordEncoded(at: now, limitedBy: limited ? .bandwidth : .none, in: &state)
                let force = state.keyframeRequested
                state.keyframeRequested = false
                let frame = try encoder.encode(picture, forceKeyframe: force)
                // Against the rate libvpx was set to, so an encoder that overshoots by a steady
                // factor settles at the target; a frame it dropped to hold its rate has no bits.
                state.rateAdjuster.encoded(bytes: frame?.data.count ?? 0, target: Double(state.appliedBitrate ?? target * 1000),
                                           at: now)
                return frame
            }
        } catch {
            throw .media("VP8: \(error)")
        }
        if let encoded { send(encodedVideo: encoded) }
    }

    /// Sends one already-encoded VP8 frame.
    public func send(encodedVideo frame: EncodedVideoFrame) {
        let units = state.withLock { $0.packetizer.packetize(frame) }
        deliver(units)
    }

    /// The next encoded frame will be a keyframe (PLI/FIR from the peer, or a new receiver).
    public func requestKeyframe() {
        state.withLock { $0.keyframeRequested = true }
    }

    // MARK: Driven by the peer connection

    func attach(_ driver: TransportDriver?) {
        transport.withLock { $0 = driver }
    }

    /// The transport just connected: an audio frame captured while it was connecting goes out
    /// now instead of the listener waiting for the next capture tick (up to 20 ms, half that
    /// on average, counted in time to first decoded audio, Docs/BENCHMARKS.md `setup_ms_audio`).
    /// The frame is at most `heldAudioLifetime` old and keeps the RTP timestamp it was captured with.
    /// Taken and sent under the transport's lock, as fresh frames are, so the two cannot swap
    /// places; a fresh frame sent first makes the held one obsolete.
    func transportConnected() {
        guard let driver = transport.withLock({ $0 }) else { return }
        let sent = driver.perform { core, now -> Bool in
            guard let held = state.withLock({ state -> [RTPPayloadUnit]? in
                defer { state.heldAudio = nil }
                // Only a frame of the capture still running: one from before a pause is stale.
                guard let at = state.heldAt, ContinuousClock.now - at <= Self.heldAudioLifetime else { return nil }
                return state.heldAudio
            }) else { return false }
            guard core.dtlsState == .connected, core.media.send(held, ssrc: ssrc, now: now) else { return false }
            core.flushMedia(now: now)
            return true
        }
        if sent {
            state.withLock { state in
                state.framesSent += 1
                state.framesDropped -= 1
            }
        }
    }

    /// How old a held audio frame may be when the transport connects (two 20 ms frames).
    public static let heldAudioLifetime: Duration = .milliseconds(40)

    private func hold(_ units: [RTPPayloadUnit]) {
        state.withLock { state in
            state.heldAudio = units
            state.heldAt = .now
        }
    }

    private func deliver(_ units: [RTPPayloadUnit]) {
        guard let driver = transport.withLock({ $0 }) else {
            // No transport yet (negotiation not finished): the newest audio frame waits for it.
            if kind == .audio { hold(units) }
            return countDropped()
        }
        let ceiling = state.withLock { $0.ceilingKbps }
        let (sent, allocation) = driver.perform { core, now -> (Bool, BitrateAllocation) in
            let allocation = BitrateAllocation(target: core.media.encoderTarget(now: now), audioBitrate: audioBitrate,
                                               videoBitrateKbps: ceiling)
            // Recovery probes run while the estimate holds this encoder below its rate.
            if kind == .video { core.media.bandwidth.encodersLimited = allocation.videoKbps < ceiling }
            guard core.dtlsState == .connected, core.media.send(units, ssrc: ssrc, now: now) else {
                if kind == .audio, core.dtlsState == .new || core.dtlsState == .connecting { hold(units) }
                return (false, allocation)
            }
            if kind == .audio { state.withLock { $0.heldAudio = nil } }  // a fresh frame supersedes a held one
            core.flushMedia(now: now)
            return (true, allocation)
        }
        state.withLock { state in
            state.allocation = allocation
            if sent {
                state.framesSent += 1
            } else {
                // The encoder counted this frame as a reference the receiver never got (video
                // removed, hold, transport not up): the next frame must not depend on it.
                state.framesDropped += 1
                state.keyframeRequested = true
            }
        }
    }

    /// The rate the encoder was last given (W3C `outbound-rtp.targetBitrate`), bit/s.
    /// Nil while Tern's encoder is not in use (frames the application encodes itself).
    var targetBitrate: Int? {
        state.withLock { state in
            guard state.audioEncoder != nil || state.videoEncoder != nil else { return nil }
            return state.appliedBitrate ?? (kind == .audio ? audioBitrate : state.ceilingKbps * 1000)
        }
    }

    /// Video sent through Tern's encoder: frame rate over the last second, size, what limits it.
    var videoSending: VideoSending? {
        guard kind == .video else { return nil }
        let now = clock.now()
        return state.withLock { state in
            guard state.videoEncoder != nil else { return nil }
            var durations = state.limitationDurations
            if let since = state.limitationSince { durations[state.limitation, default: 0] += (now - since).seconds }
            return VideoSending(
                framesPerSecond: Double(state.encodedAt.filter { now - $0 <= .seconds(1) }.count),
                frameWidth: state.videoEncoderSize?.width, frameHeight: state.videoEncoderSize?.height,
                qualityLimitationReason: state.limitation.rawValue,
                qualityLimitationDurations: Dictionary(uniqueKeysWithValues: QualityLimitation.allCases.map {
                    ($0.rawValue, durations[$0, default: 0])
                }))
        }
    }

    /// A frame not encoded for want of bandwidth: its time passes all the same (RTP timestamp and
    /// libvpx's clock, `VP8Encoder.skip`), so the next frame's timestamp says when it was taken
    /// and the frames sent carry the skipped one's bits.
    private static func skipFrame(at now: Instant, in state: inout State) {
        state.videoEncoder?.skip()
        recordLimitation(at: now, .bandwidth, in: &state)
    }

    private static func recordEncoded(at now: Instant, limitedBy reason: QualityLimitation, in state: inout State) {
        state.encodedAt.append(now)
        state.encodedAt.removeAll { now - $0 > .seconds(1) }
        recordLimitation(at: now, reason, in: &state)
    }

    private static func recordLimitation(at now: Instant, _ reason: QualityLimitation, in state: inout State) {
        if let since = state.limitationSince {
            guard reason != state.limitation else { return }
            state.limitationDurations[state.limitation, default: 0] += (now - since).seconds
        }
        state.limitation = reason
        state.limitationSince = now
    }

    /// Encoders are reconfigured on changes of 5 % or more, not every frame.
    private static func differsEnough(_ target: Int, _ applied: Int) -> Bool {
        abs(target - applied) * 20 >= applied
    }

    private func countDropped() {
        state.withLock { $0.framesDropped += 1 }
    }
}
