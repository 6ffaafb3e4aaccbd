/// Decodes a received Opus stream that arrives in order with known gaps (what
/// `TernRTP.AudioReorderBuffer` releases): before each packet it conceals the frames lost just
/// before it — the last one from that packet's in-band FEC copy (RFC 6716 §2.1.7), earlier ones
/// by libopus' packet loss concealment — so the decoded audio keeps its timeline and phase.
public final class OpusStreamDecoder: Sendable {
    /// Longest gap that is concealed (100 ms of 20 ms frames); beyond it extrapolation sounds worse
    /// than the gap, so the rest is skipped.
    public static let maxConcealedFrames = 5

    private let decoder: OpusAudioDecoder

    /// Creates a decoder producing `channels` channels at 48 kHz.
    public init(channels: OpusConfiguration.Channels = .mono) throws(OpusError) {
        decoder = try OpusAudioDecoder(channels: channels)
    }

    /// The PCM for `frame`, preceded by `lost` concealed frames (at most `maxConcealedFrames`),
    /// each chunk one frame of interleaved samples. `concealed` says how many chunks are concealment.
    public func decode(_ frame: EncodedAudioFrame, afterLosing lost: Int) throws(OpusError)
        -> (chunks: [[Int16]], concealed: Int) {
        let samples = frame.sampleCount > 0 && frame.sampleCount % 120 == 0 ? frame.sampleCount : OpusConfiguration.samplesPerFrame
        let concealed = min(max(lost, 0), Self.maxConcealedFrames)
        var chunks: [[Int16]] = []
        chunks.reserveCapacity(concealed + 1)
        for index in 0..<concealed {
            // Only the frame right before `frame` has its FEC copy inside `frame`.
            let next = index == concealed - 1 ? frame.data : nil
            chunks.append(try decoder.concealLoss(nextPacket: next, samplesPerChannel: samples))
        }
        chunks.append(try decoder.decode(frame.data))
        return (chunks, concealed)
    }
}
