/// How an Opus encoder is set up. The defaults suit interactive speech over
/// WebRTC: 48 kHz, 20 ms frames, in-band FEC on, DTX off.
public struct OpusConfiguration: Sendable, Equatable {
    /// Mono or stereo.
    public enum Channels: Int, Sendable {
        case mono = 1
        case stereo = 2
    }

    /// The Opus sample rate; RTP always uses 48 kHz for Opus (RFC 7587 §4.1).
    public static let sampleRate = 48_000
    /// Samples per channel in one 20 ms frame at 48 kHz.
    public static let samplesPerFrame = 960

    /// Number of channels.
    public var channels: Channels
    /// Target bitrate in bits per second (libopus accepts 500…512 000).
    public var bitrate: Int
    /// Whether the encoder adds in-band forward error correction (LBRR, RFC 6716 §2.1.7),
    /// so the receiver can rebuild a lost packet from the next one.
    public var inbandFEC: Bool
    /// Expected packet loss in percent (0…100); FEC is only emitted when this is > 0.
    public var expectedPacketLossPercent: Int
    /// Discontinuous transmission: near-silent frames become 1–2 byte packets.
    public var dtx: Bool
    /// Encoder complexity 0…10.
    public var complexity: Int

    /// A configuration; every field has a WebRTC-like default.
    public init(channels: Channels = .mono, bitrate: Int = 32_000, inbandFEC: Bool = true,
                expectedPacketLossPercent: Int = 10, dtx: Bool = false, complexity: Int = 9) {
        self.channels = channels
        self.bitrate = bitrate
        self.inbandFEC = inbandFEC
        self.expectedPacketLossPercent = expectedPacketLossPercent
        self.dtx = dtx
        self.complexity = complexity
    }
}
