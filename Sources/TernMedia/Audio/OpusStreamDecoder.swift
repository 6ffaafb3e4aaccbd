import Synchronization

/// Decodes a received Opus stream that arrives in order with known gaps (what
/// `TernRTP.AudioReorderBuffer` releases): before each packet it conceals the frames lost just
/// before it — the last one from that packet's in-band FEC copy (RFC 6716 §2.1.7), earlier ones
/// by libopus' packet loss concealment — so the decoded audio keeps its timeline and phase.
public final class OpusStreamDecoder: Sendable {
    /// Longest gap that is concealed (100 ms of 20 ms frames); beyond it extrapolation sounds worse
    /// than the gap, so the rest is skipped.
    public static let maxConcealedFrames = 5

    private let decoder: OpusAudioDecoder
    /// The RTP timestamp right after the last decoded packet's samples.
    private let expectedTimestamp = Mutex<UInt32?>(nil)

    /// Creates a decoder producing `channels` channels at 48 kHz.
    public init(channels: OpusConfiguration.Channels = .mono) throws(OpusError) {
        decoder = try OpusAudioDecoder(channels: channels)
    }

    /// The PCM for `frame`, preceded by `lost` concealed frames (at most `maxConcealedFrames`),
    /// each chunk one frame of interleaved samples. `concealed` says how many chunks are concealment.
    ///
    /// Sequence numbers count the packets missing; the timestamps say how much audio is (RFC 3550
    /// §5.1: the timestamp is the sampling instant). Concealment covers no more than the
    /// timestamp gap since the last decoded packet, so a peer whose sequence numbers jump while its
    /// timestamps run on (a hostile sequence walk, or a sender that restarts its numbering) costs
    /// one decode per packet, not six.
    public func decode(_ frame: EncodedAudioFrame, afterLosing lost: Int) throws(OpusError)
        -> (chunks: [[Int16]], concealed: Int) {
        let samples = frame.sampleCount > 0 && frame.sampleCount % 120 == 0 ? frame.sampleCount : OpusConfiguration.samplesPerFrame
        let missingByTimestamp = expectedTimestamp.withLock { expected -> Int in
            defer { expected = frame.timestamp &+ UInt32(truncatingIfNeeded: samples) }
            guard let expected else { return Self.maxConcealedFrames }
            // Signed distance on the 32-bit timestamp circle; behind or equal: nothing missing.
            return max(0, Int(Int32(bitPattern: frame.timestamp &- expected))) / samples
        }
        let concealed = min(max(lost, 0), Self.maxConcealedFrames, missingByTimestamp)
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
