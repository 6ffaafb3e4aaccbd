internal import CVPX
internal import Synchronization

/// A VP8 decoder (libvpx): encoded frames in, I420 pictures out.
///
/// Thread-safe: the libvpx context sits in a `Mutex`, so concurrent calls are serialised.
public final class VP8Decoder: Sendable {
    private struct State { let context: UnsafeMutablePointer<vpx_codec_ctx_t> }
    private let state: Mutex<State>
    /// The largest picture a keyframe may declare. libvpx allocates frame buffers for whatever a
    /// keyframe header says (up to 16383x16383, ~400 MB of buffers), so a peer could exhaust
    /// memory with one small packet; larger keyframes are refused before libvpx sees them.
    public let maximumSize: (width: Int, height: Int)

    /// The default `maximumSize`: 4096x4096 (above 4K UHD).
    public static let defaultMaximumSize = (width: 4096, height: 4096)

    /// Creates a decoder (single-threaded by default) that refuses keyframes over `maximumSize`.
    public init(threads: Int = 1, maximumSize: (width: Int, height: Int) = VP8Decoder.defaultMaximumSize) throws(VP8Error) {
        self.maximumSize = maximumSize
        let context = UnsafeMutablePointer<vpx_codec_ctx_t>.allocate(capacity: 1)
        context.initialize(to: vpx_codec_ctx_t())
        var cfg = vpx_codec_dec_cfg_t(threads: UInt32(max(threads, 1)), w: 0, h: 0)
        let status = tern_vpx_codec_dec_init(context, vpx_codec_vp8_dx(), &cfg, 0)
        guard status == VPX_CODEC_OK else {
            let message = VP8Encoder.describe(status, context)
            context.deallocate()
            throw .initializationFailed(message: message)
        }
        state = Mutex(State(context: context))
    }

    deinit {
        state.withLock { state in
            vpx_codec_destroy(state.context)
            state.context.deallocate()
        }
    }

    /// Decodes one complete VP8 frame. Returns the picture, or nil when the
    /// frame produced none (libvpx may withhold output for a corrupt frame).
    public func decode(_ data: [UInt8]) throws(VP8Error) -> I420Frame? {
        guard !data.isEmpty else { throw .decodeFailed(message: "empty frame") }
        if let header = VP8PayloadHeader(data), let width = header.keyframeWidth, let height = header.keyframeHeight,
           width > maximumSize.width || height > maximumSize.height {
            throw .frameTooLarge(width: width, height: height, maximumWidth: maximumSize.width, maximumHeight: maximumSize.height)
        }
        return try state.withLock { (state) throws(VP8Error) -> I420Frame? in
            let context = state.context
            let status = data.withUnsafeBufferPointer { buffer in
                vpx_codec_decode(context, buffer.baseAddress, UInt32(clamping: buffer.count), nil, 0)
            }
            guard status == VPX_CODEC_OK else { throw .decodeFailed(message: VP8Encoder.describe(status, context)) }
            var iterator: vpx_codec_iter_t? = nil
            var picture: I420Frame?
            while let image = vpx_codec_get_frame(context, &iterator) {
                picture = try Self.copy(image.pointee)
            }
            return picture
        }
    }

    /// Decodes an `EncodedVideoFrame`.
    public func decode(_ frame: EncodedVideoFrame) throws(VP8Error) -> I420Frame? {
        try decode(frame.data)
    }

    private static func copy(_ img: vpx_image_t) throws(VP8Error) -> I420Frame {
        guard img.fmt == VPX_IMG_FMT_I420 else { throw .unsupportedImageFormat(rawValue: img.fmt.rawValue) }
        let width = Int(img.d_w), height = Int(img.d_h)
        guard width > 0, height > 0 else { throw .decodeFailed(message: "decoder returned an empty \(width)x\(height) picture") }
        var frame = I420Frame(width: width, height: height)
        frame.y = plane(img.planes.0, stride: Int(img.stride.0), rowBytes: width, rows: height)
        frame.u = plane(img.planes.1, stride: Int(img.stride.1), rowBytes: frame.chromaWidth, rows: frame.chromaHeight)
        frame.v = plane(img.planes.2, stride: Int(img.stride.2), rowBytes: frame.chromaWidth, rows: frame.chromaHeight)
        return frame
    }

    private static func plane(_ base: UnsafeMutablePointer<UInt8>?, stride: Int, rowBytes: Int, rows: Int) -> [UInt8] {
        guard let base else { return [UInt8](repeating: 128, count: rowBytes * rows) }
        var out = [UInt8](repeating: 0, count: rowBytes * rows)
        out.withUnsafeMutableBufferPointer { destination in
            guard let target = destination.baseAddress else { return }
            for row in 0..<rows {
                (target + row * rowBytes).update(from: base + row * stride, count: rowBytes)
            }
        }
        return out
    }
}
