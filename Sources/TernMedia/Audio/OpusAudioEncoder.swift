internal import COpus
internal import Synchronization

/// An Opus encoder (libopus) producing one packet per 20 ms of 48 kHz Int16 PCM.
///
/// Thread-safe: the libopus state, the timestamp and the output buffer live in a
/// `Mutex`, so concurrent calls are serialised.
public final class OpusAudioEncoder: Sendable {
    private struct State {
        let encoder: OpaquePointer
        var nextTimestamp: UInt32
        var output = [UInt8](repeating: 0, count: 1500)
    }

    /// The configuration the encoder was created with.
    public let configuration: OpusConfiguration
    private let state: Mutex<State>

    /// RTP timestamp (48 kHz) the next encoded frame will carry.
    public var nextTimestamp: UInt32 { state.withLock { $0.nextTimestamp } }

    /// Creates an encoder (application VOIP). `initialTimestamp` is the RTP timestamp of the first frame.
    public init(configuration: OpusConfiguration = OpusConfiguration(), initialTimestamp: UInt32 = 0) throws(OpusError) {
        var error: Int32 = 0
        guard let encoder = opus_encoder_create(Int32(OpusConfiguration.sampleRate),
                                                Int32(configuration.channels.rawValue),
                                                OPUS_APPLICATION_VOIP, &error),
              error == OPUS_OK
        else { throw .creationFailed(code: error, message: OpusError.message(error)) }
        do throws(OpusError) {
            try Self.check("bitrate", tern_opus_set_bitrate(encoder, Int32(clamping: configuration.bitrate)))
            try Self.check("in-band FEC", tern_opus_set_inband_fec(encoder, configuration.inbandFEC ? 1 : 0))
            try Self.check("packet loss percentage",
                           tern_opus_set_packet_loss_perc(encoder, Int32(clamping: configuration.expectedPacketLossPercent)))
            try Self.check("DTX", tern_opus_set_dtx(encoder, configuration.dtx ? 1 : 0))
            try Self.check("complexity", tern_opus_set_complexity(encoder, Int32(clamping: configuration.complexity)))
        } catch {
            opus_encoder_destroy(encoder)
            throw error
        }
        self.configuration = configuration
        self.state = Mutex(State(encoder: encoder, nextTimestamp: initialTimestamp))
    }

    deinit { state.withLock { opus_encoder_destroy($0.encoder) } }

    /// Encodes exactly one 20 ms frame: 960 samples per channel, interleaved when stereo.
    public func encode(_ pcm: [Int16]) throws(OpusError) -> EncodedAudioFrame {
        let expected = OpusConfiguration.samplesPerFrame * configuration.channels.rawValue
        guard pcm.count == expected else { throw .wrongFrameSize(expectedSamples: expected, got: pcm.count) }
        return try state.withLock { (state) throws(OpusError) -> EncodedAudioFrame in
            let encoder = state.encoder
            let capacity = Int32(state.output.count)
            let length = pcm.withUnsafeBufferPointer { input in
                state.output.withUnsafeMutableBufferPointer { out in
                    guard let source = input.baseAddress, let target = out.baseAddress else { return OPUS_BAD_ARG }
                    return opus_encode(encoder, source, Int32(OpusConfiguration.samplesPerFrame), target, capacity)
                }
            }
            guard length > 0 else { throw .encodeFailed(code: length, message: OpusError.message(length)) }
            let frame = EncodedAudioFrame(timestamp: state.nextTimestamp, data: Array(state.output[0..<Int(length)]),
                                          sampleCount: OpusConfiguration.samplesPerFrame)
            state.nextTimestamp &+= UInt32(OpusConfiguration.samplesPerFrame)
            return frame
        }
    }

    /// Changes the target bitrate for the next frames (libopus `OPUS_SET_BITRATE`); no new
    /// state, no glitch.
    public func setBitrate(_ bitsPerSecond: Int) throws(OpusError) {
        try state.withLock { state throws(OpusError) in
            try Self.check("bitrate", tern_opus_set_bitrate(state.encoder, Int32(clamping: bitsPerSecond)))
        }
    }

    private static func check(_ setting: String, _ code: Int32) throws(OpusError) {
        guard code == OPUS_OK else {
            throw .configurationRejected(setting: setting, code: code, message: OpusError.message(code))
        }
    }
}
