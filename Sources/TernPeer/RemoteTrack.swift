import Synchronization
import TernRTP
import TernCore
public import TernMedia
import TernSDP

/// Media arriving from the remote side on one stream (W3C `track` event's `MediaStreamTrack`
/// with its `RTCRtpReceiver`): decoded frames as an `AsyncStream`, or the encoded frames.
///
/// Decoding runs on the thread that delivered the packet (the ICE transport's thread); the
/// stream buffers the newest 256 frames, so a slow consumer loses old frames, never memory.
public final class RemoteTrack: Sendable {
    /// A decoded frame.
    public enum Frame: Sendable {
        /// 20 ms (usually) of 48 kHz PCM, interleaved when stereo.
        case audio([Int16])
        /// One decoded picture.
        case video(I420Frame)
    }

    /// A frame as it arrived, before decoding.
    public enum EncodedFrame: Sendable {
        /// One Opus packet's frame (RFC 7587).
        case audio(EncodedAudioFrame)
        /// One complete VP8 frame, reassembled from its RTP packets (RFC 7741).
        case video(EncodedVideoFrame)
    }

    /// The stream: mid, kind, SSRC, codec.
    public let info: RemoteStreamInfo
    /// Decoded frames, in order. Single consumer.
    public let frames: AsyncStream<Frame>

    private struct State {
        var audioDecoder: OpusStreamDecoder?
        /// Audio frames lost just before the next one (concealed when it comes).
        var pendingAudioLoss = 0
        var concealedFrames = 0
        var videoDecoder: VP8Decoder?
        var framesReceived = 0
        var framesDecoded = 0
        /// Size of the last decoded video picture (W3C `frameWidth`/`frameHeight`).
        var frameSize: (width: Int, height: Int)?
        var decodeFailures = 0
        /// Video: freezes and frame rate of the decoded (rendered) pictures.
        var freezes = FreezeDetector()
        var lastAudio: [Int16] = []
        var encoded: AsyncStream<EncodedFrame>.Continuation?
        var decodes = true
    }

    private let state = Mutex(State())
    private let continuation: AsyncStream<Frame>.Continuation
    private let keyframeNeeded: @Sendable () -> Void
    private let clock: any MonotonicClock = SystemClock()

    init(info: RemoteStreamInfo, keyframeNeeded: @escaping @Sendable () -> Void) {
        self.info = info
        self.keyframeNeeded = keyframeNeeded
        (frames, continuation) = AsyncStream.makeStream(of: Frame.self, bufferingPolicy: .bufferingNewest(256))
    }

    /// Encoded frames received (W3C `framesReceived` for video; packets for audio).
    public var framesReceived: Int { state.withLock { $0.framesReceived } }
    /// Frames decoded (W3C `framesDecoded`).
    public var framesDecoded: Int { state.withLock { $0.framesDecoded } }
    /// Width and height of the last decoded video picture (W3C `frameWidth`, `frameHeight`); nil
    /// before the first one and for audio.
    public var frameSize: (width: Int, height: Int)? { state.withLock { $0.frameSize } }
    /// Video freezes as W3C defines them (`freezeCount`, `totalFreezesDuration` in seconds), the
    /// decoded frame rate over the last second (`framesPerSecond`) and from the first frame to
    /// the last (`averageFramesPerSecond`); nil for audio.
    public var videoRendering: (freezeCount: Int, totalFreezesDuration: Double, framesPerSecond: Double,
                                averageFramesPerSecond: Double?)? {
        guard info.kind == .video else { return nil }
        let now = clock.now()
        return state.withLock { state in
            (state.freezes.freezeCount, state.freezes.totalFreezesDuration, state.freezes.framesPerSecond(at: now),
             state.freezes.averageFramesPerSecond)
        }
    }

    /// Frames the decoder refused.
    public var decodeFailures: Int { state.withLock { $0.decodeFailures } }
    /// Audio frames made up for lost packets (Opus FEC or PLC), W3C `concealmentEvents`-like count.
    public var concealedFrames: Int { state.withLock { $0.concealedFrames } }

    /// The encoded frames from now on, for recording or forwarding without re-encoding (the
    /// W3C encoded-transform use case). Single consumer; a second call finishes the first stream.
    /// Video: asks the sender for a keyframe, so the stream soon starts with a decodable frame.
    /// - Parameter decoding: false stops decoding (nothing more on `frames`, no decoder CPU).
    public func encodedFrames(decoding: Bool = true) -> AsyncStream<EncodedFrame> {
        let (stream, continuation) = AsyncStream.makeStream(of: EncodedFrame.self, bufferingPolicy: .bufferingNewest(256))
        let previous = state.withLock { state in
            defer { state.encoded = continuation; state.decodes = decoding }
            return state.encoded
        }
        previous?.finish()
        if info.kind == .video { keyframeNeeded() }
        return stream
    }

    func lose(audioFrames count: Int) {
        state.withLock { $0.pendingAudioLoss += count }
    }

    func consume(_ frame: EncodedAudioFrame) {
        let chunks: [[Int16]] = state.withLock { state in
            state.framesReceived += 1
            state.encoded?.yield(.audio(frame))
            guard state.decodes else {
                state.pendingAudioLoss = 0
                return []
            }
            let lost = state.pendingAudioLoss
            state.pendingAudioLoss = 0
            do {
                let decoder: OpusStreamDecoder
                if let existing = state.audioDecoder { decoder = existing } else {
                    decoder = try OpusStreamDecoder()
                    state.audioDecoder = decoder
                }
                let (chunks, concealed) = try decoder.decode(frame, afterLosing: lost)
                state.framesDecoded += 1
                state.concealedFrames += concealed
                return chunks
            } catch {
                state.decodeFailures += 1
                return []
            }
        }
        for pcm in chunks { continuation.yield(.audio(pcm)) }
    }

    func consume(_ frame: EncodedVideoFrame) {
        let (picture, needKeyframe): (I420Frame?, Bool) = state.withLock { state in
            state.framesReceived += 1
            state.encoded?.yield(.video(frame))
            guard state.decodes else { return (nil, false) }
            do {
                let decoder: VP8Decoder
                if let existing = state.videoDecoder { decoder = existing } else {
                    decoder = try VP8Decoder()
                    state.videoDecoder = decoder
                }
                guard let picture = try decoder.decode(frame) else { return (nil, false) }
                state.framesDecoded += 1
                state.frameSize = (picture.width, picture.height)
                state.freezes.frameRendered(at: clock.now())
                return (picture, false)
            } catch {
                state.decodeFailures += 1
                return (nil, true)
            }
        }
        if needKeyframe { keyframeNeeded() }
        if let picture { continuation.yield(.video(picture)) }
    }

    func finish() {
        continuation.finish()
        state.withLock { $0.encoded }?.finish()
    }
}
