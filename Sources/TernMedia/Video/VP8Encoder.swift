internal import CVPX
internal import Synchronization

/// A real-time VP8 encoder (libvpx): I420 pictures in, one encoded frame out per picture.
///
/// Thread-safe: the libvpx context, its image buffer and the encoder's counters live in
/// a `Mutex`, so `requestKeyframe()` (e.g. on an RTCP PLI) may come from another thread
/// while frames are being encoded; calls are serialised.
public final class VP8Encoder: Sendable {
    private struct State {
        let context: UnsafeMutablePointer<vpx_codec_ctx_t>
        let image: UnsafeMutablePointer<vpx_image_t>
        var encoderConfig: vpx_codec_enc_cfg_t
        var configuration: VP8EncoderConfiguration
        var nextTimestamp: UInt32
        var framesEncoded: Int64 = 0
        var keyframeRequested = false
    }

    private let state: Mutex<State>

    /// The current configuration (the bitrate may change with `setBitrate`).
    public var configuration: VP8EncoderConfiguration { state.withLock { $0.configuration } }
    /// RTP timestamp (90 kHz) the next encoded frame will carry.
    public var nextTimestamp: UInt32 { state.withLock { $0.nextTimestamp } }

    /// Creates an encoder; `initialTimestamp` is the RTP timestamp of the first frame.
    public init(configuration: VP8EncoderConfiguration, initialTimestamp: UInt32 = 0) throws(VP8Error) {
        let c = configuration
        guard c.width > 0, c.height > 0, c.width % 2 == 0, c.height % 2 == 0, c.width <= 16382, c.height <= 16382
        else { throw .invalidConfiguration("size \(c.width)x\(c.height) must be even and within 2…16382") }
        guard c.framesPerSecond > 0, c.bitrateKbps > 0, c.keyframeInterval > 0, c.threads > 0
        else { throw .invalidConfiguration("frame rate, bitrate, keyframe interval and threads must be positive") }

        var cfg = vpx_codec_enc_cfg_t()
        guard vpx_codec_enc_config_default(vpx_codec_vp8_cx(), &cfg, 0) == VPX_CODEC_OK else {
            throw .initializationFailed(message: "no default VP8 encoder configuration")
        }
        cfg.g_w = UInt32(c.width)
        cfg.g_h = UInt32(c.height)
        cfg.g_timebase = vpx_rational(num: 1, den: Int32(c.framesPerSecond))
        cfg.g_threads = UInt32(c.threads)
        cfg.g_lag_in_frames = 0          // real time: no look-ahead, one output per input
        cfg.g_pass = VPX_RC_ONE_PASS
        cfg.g_error_resilient = c.errorResilient ? vpx_codec_er_flags_t(VPX_ERROR_RESILIENT_DEFAULT) : 0
        cfg.rc_end_usage = VPX_CBR
        cfg.rc_target_bitrate = UInt32(c.bitrateKbps)
        cfg.rc_dropframe_thresh = c.dropsFramesToHoldBitrate ? 30 : 0
        cfg.rc_min_quantizer = 2
        cfg.rc_max_quantizer = 56
        cfg.rc_undershoot_pct = 100
        cfg.rc_overshoot_pct = 15
        cfg.rc_buf_initial_sz = 500
        cfg.rc_buf_optimal_sz = 600
        cfg.rc_buf_sz = 1000
        cfg.kf_mode = VPX_KF_AUTO
        cfg.kf_min_dist = 0
        cfg.kf_max_dist = UInt32(c.keyframeInterval)

        let context = UnsafeMutablePointer<vpx_codec_ctx_t>.allocate(capacity: 1)
        context.initialize(to: vpx_codec_ctx_t())
        let status = tern_vpx_codec_enc_init(context, vpx_codec_vp8_cx(), &cfg, 0)
        guard status == VPX_CODEC_OK else {
            let message = VP8Encoder.describe(status, context)
            context.deallocate()
            throw .initializationFailed(message: message)
        }
        var cpu = tern_vp8_set_cpuused(context, Int32(clamping: c.cpuUsed))
        if cpu == VPX_CODEC_OK, let percent = c.maximumKeyframeBitratePercent {
            cpu = tern_vp8_set_max_intra_bitrate_pct(context, UInt32(clamping: max(0, percent)))
        }
        guard cpu == VPX_CODEC_OK, let image = vpx_img_alloc(nil, VPX_IMG_FMT_I420, UInt32(c.width), UInt32(c.height), 16)
        else {
            let error: VP8Error = cpu == VPX_CODEC_OK
                ? .initializationFailed(message: "could not allocate a \(c.width)x\(c.height) I420 image")
                : .controlRejected(setting: "cpu-used \(c.cpuUsed), max intra bitrate \(c.maximumKeyframeBitratePercent.map(String.init) ?? "default")",
                                   message: VP8Encoder.describe(cpu, context))
            vpx_codec_destroy(context)
            context.deallocate()
            throw error
        }
        state = Mutex(State(context: context, image: image, encoderConfig: cfg, configuration: c,
                            nextTimestamp: initialTimestamp))
    }

    deinit {
        state.withLock { state in
            vpx_img_free(state.image)
            vpx_codec_destroy(state.context)
            state.context.deallocate()
        }
    }

    /// Makes the next encoded frame a keyframe (e.g. after an RTCP PLI or FIR).
    public func requestKeyframe() { state.withLock { $0.keyframeRequested = true } }

    /// Changes the target bitrate for the following frames.
    ///
    /// Lowering it also takes away the credit libvpx saved at the old rate: its CBR buffer
    /// level is a count of bits, clipped on a reconfiguration only to the new buffer size (a
    /// second at the new rate), so after a cut the encoder would spend what it had saved at the
    /// higher rate — for a second or more over the new target, on a path whose capacity just
    /// fell. Setting the buffer size to the optimal level for one reconfiguration clips the
    /// level there (vp8_change_config); the size is restored at once, and the level does not
    /// rise with it.
    public func setBitrate(kbps: Int) throws(VP8Error) {
        guard kbps > 0 else { throw .invalidConfiguration("bitrate must be positive") }
        try state.withLock { (state) throws(VP8Error) in
            func apply(_ config: inout vpx_codec_enc_cfg_t) throws(VP8Error) {
                let status = vpx_codec_enc_config_set(state.context, &config)
                guard status == VPX_CODEC_OK else {
                    throw .controlRejected(setting: "bitrate \(kbps) kbps", message: Self.describe(status, state.context))
                }
            }
            let lower = UInt32(clamping: kbps) < state.encoderConfig.rc_target_bitrate
            state.encoderConfig.rc_target_bitrate = UInt32(clamping: kbps)
            if lower {
                var clipping = state.encoderConfig
                clipping.rc_buf_sz = min(clipping.rc_buf_sz, clipping.rc_buf_optimal_sz)
                try apply(&clipping)
            }
            try apply(&state.encoderConfig)
            state.configuration.bitrateKbps = kbps
        }
    }

    /// Lets one frame's time pass without a picture (the sender lowered its frame rate): the
    /// next frame's RTP timestamp and libvpx presentation time are one frame later, so libvpx's
    /// rate control, which takes the frame rate from those times, gives each frame sent more bits.
    public func skip() {
        state.withLock { state in
            state.framesEncoded += 1
            state.nextTimestamp &+= state.configuration.timestampIncrement
        }
    }

    /// Encodes one picture. Returns nil when libvpx produced no frame for it (it skipped the
    /// picture to hold the bitrate, `dropsFramesToHoldBitrate`).
    /// `forceKeyframe` (or an earlier `requestKeyframe()`) makes it a keyframe.
    public func encode(_ frame: I420Frame, forceKeyframe: Bool = false) throws(VP8Error) -> EncodedVideoFrame? {
        try state.withLock { (state) throws(VP8Error) -> EncodedVideoFrame? in
            let c = state.configuration
            guard frame.width == c.width, frame.height == c.height else {
                throw .frameSizeMismatch(expectedWidth: c.width, expectedHeight: c.height,
                                         width: frame.width, height: frame.height)
            }
            Self.copy(frame, into: state.image)
            let forced = forceKeyframe || state.keyframeRequested
            let flags = forced ? vpx_enc_frame_flags_t(tern_VPX_EFLAG_FORCE_KF()) : 0
            let status = vpx_codec_encode(state.context, state.image, state.framesEncoded, 1, flags,
                                          UInt(tern_VPX_DL_REALTIME()))
            guard status == VPX_CODEC_OK else { throw .encodeFailed(message: Self.describe(status, state.context)) }
            state.framesEncoded += 1
            state.keyframeRequested = false

            // With g_lag_in_frames = 0 and one spatial layer, libvpx emits at most one frame packet per call.
            var result: EncodedVideoFrame?
            var iterator: vpx_codec_iter_t? = nil
            while let packet = vpx_codec_get_cx_data(state.context, &iterator) {
                guard packet.pointee.kind == VPX_CODEC_CX_FRAME_PKT else { continue }
                let cx = packet.pointee.data.frame
                guard let buffer = cx.buf, cx.sz > 0 else { continue }
                let isKey = (cx.flags & vpx_codec_frame_flags_t(tern_VPX_FRAME_IS_KEY())) != 0
                result = EncodedVideoFrame(timestamp: state.nextTimestamp, isKeyframe: isKey,
                                           data: Array(UnsafeRawBufferPointer(start: buffer, count: Int(cx.sz))))
            }
            state.nextTimestamp &+= c.timestampIncrement
            return result
        }
    }

    private static func copy(_ frame: I420Frame, into image: UnsafeMutablePointer<vpx_image_t>) {
        let img = image.pointee
        let targets = [(img.planes.0, Int(img.stride.0)), (img.planes.1, Int(img.stride.1)),
                       (img.planes.2, Int(img.stride.2))]
        let sources = [(frame.y, frame.strideY, frame.width, frame.height),
                       (frame.u, frame.strideU, frame.chromaWidth, frame.chromaHeight),
                       (frame.v, frame.strideV, frame.chromaWidth, frame.chromaHeight)]
        for index in 0..<3 {
            guard let destination = targets[index].0 else { continue }
            let targetStride = targets[index].1
            let (source, sourceStride, rowBytes, rows) = sources[index]
            // I420Frame's initialiser guarantees stride ≥ rowBytes and count ≥ stride × rows; re-check
            // because the fields are public and mutable.
            guard sourceStride >= rowBytes, source.count >= sourceStride * rows else { continue }
            source.withUnsafeBufferPointer { src in
                guard let base = src.baseAddress else { return }
                for row in 0..<rows {
                    (destination + row * targetStride).update(from: base + row * sourceStride, count: rowBytes)
                }
            }
        }
    }

    static func describe(_ status: vpx_codec_err_t, _ context: UnsafeMutablePointer<vpx_codec_ctx_t>) -> String {
        var text = String(cString: vpx_codec_err_to_string(status))
        if let detail = vpx_codec_error_detail(context) { text += " (\(String(cString: detail)))" }
        return text
    }
}
