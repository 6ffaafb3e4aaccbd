internal import COpus
internal import Synchronization

/// An Opus decoder (libopus) producing 48 kHz Int16 PCM, with loss concealment.
///
/// For a lost packet, call `concealLoss(nextPacket:)`: with the packet that
/// follows the loss it decodes that packet's in-band FEC copy (RFC 6716 §2.1.7);
/// without it, libopus' packet loss concealment extrapolates.
///
/// Thread-safe: the libopus decoder state sits in a `Mutex`, so concurrent calls are serialised.
public final class OpusAudioDecoder: Sendable {
    private struct State { let decoder: OpaquePointer }

    /// Channels the decoder outputs.
    public let channels: OpusConfiguration.Channels
    private let state: Mutex<State>
    /// Room for the longest Opus packet: 120 ms at 48 kHz.
    private static let maxSamplesPerChannel = 5760

    /// Creates a decoder producing `channels` channels at 48 kHz.
    public init(channels: OpusConfiguration.Channels = .mono) throws(OpusError) {
        var error: Int32 = 0
        guard let decoder = opus_decoder_create(Int32(OpusConfiguration.sampleRate),
                                                Int32(channels.rawValue), &error),
              error == OPUS_OK
        else { throw .creationFailed(code: error, message: OpusError.message(error)) }
        self.state = Mutex(State(decoder: decoder))
        self.channels = channels
    }

    deinit { state.withLock { opus_decoder_destroy($0.decoder) } }

    /// Decodes one received packet into interleaved PCM.
    public func decode(_ packet: [UInt8]) throws(OpusError) -> [Int16] {
        guard !packet.isEmpty else { throw .emptyPacket }
        return try run(packet, samplesPerChannel: Self.maxSamplesPerChannel, fec: false)
    }

    /// Produces `samplesPerChannel` samples (default 20 ms) standing in for a lost packet.
    /// If `nextPacket` (the packet after the gap) is given and carries FEC, its
    /// redundant copy of the lost frame is decoded; otherwise PLC extrapolates.
    /// Afterwards decode `nextPacket` itself normally.
    public func concealLoss(nextPacket: [UInt8]? = nil,
                            samplesPerChannel: Int = OpusConfiguration.samplesPerFrame) throws(OpusError) -> [Int16] {
        // libopus conceals in multiples of 2.5 ms (120 samples), up to 120 ms.
        guard samplesPerChannel > 0, samplesPerChannel <= Self.maxSamplesPerChannel, samplesPerChannel % 120 == 0 else {
            throw .invalidConcealmentLength(samplesPerChannel: samplesPerChannel)
        }
        if let next = nextPacket, !next.isEmpty {
            return try run(next, samplesPerChannel: samplesPerChannel, fec: true)
        }
        return try run(nil, samplesPerChannel: samplesPerChannel, fec: false)
    }

    private func run(_ packet: [UInt8]?, samplesPerChannel: Int, fec: Bool) throws(OpusError) -> [Int16] {
        let channelCount = channels.rawValue
        return try state.withLock { (state) throws(OpusError) -> [Int16] in
            let decoder = state.decoder
            var pcm = [Int16](repeating: 0, count: samplesPerChannel * channelCount)
            let decoded: Int32 = pcm.withUnsafeMutableBufferPointer { buffer in
                guard let out = buffer.baseAddress else { return OPUS_BAD_ARG }
                if let packet {
                    return packet.withUnsafeBufferPointer { input in
                        opus_decode(decoder, input.baseAddress, Int32(clamping: input.count), out,
                                    Int32(samplesPerChannel), fec ? 1 : 0)
                    }
                }
                return opus_decode(decoder, nil, 0, out, Int32(samplesPerChannel), 0)
            }
            guard decoded >= 0 else { throw .decodeFailed(code: decoded, message: OpusError.message(decoded)) }
            pcm.removeSubrange(Int(decoded) * channelCount..<pcm.count)
            return pcm
        }
    }
}
