internal import COpus

/// Why an Opus encoder or decoder call failed.
public enum OpusError: Error, Sendable, Equatable, CustomStringConvertible {
    /// libopus refused to create an encoder or decoder (`code` is libopus' error code).
    case creationFailed(code: Int32, message: String)
    /// A configuration request (`opus_encoder_ctl`) was rejected.
    case configurationRejected(setting: String, code: Int32, message: String)
    /// The PCM handed to the encoder does not hold exactly one frame.
    case wrongFrameSize(expectedSamples: Int, got: Int)
    /// `opus_encode` failed.
    case encodeFailed(code: Int32, message: String)
    /// `opus_decode` failed, typically on a corrupt packet.
    case decodeFailed(code: Int32, message: String)
    /// `concealLoss` was asked for a length that is not a multiple of 2.5 ms (120 samples) up to 120 ms.
    case invalidConcealmentLength(samplesPerChannel: Int)
    /// An empty packet was given to the decoder (RFC 6716 §3.1: a packet has at least a TOC byte).
    case emptyPacket

    public var description: String {
        switch self {
        case let .creationFailed(code, message):
            "could not create Opus codec: \(message) (\(code)); check sample rate and channel count"
        case let .configurationRejected(setting, code, message):
            "Opus rejected \(setting): \(message) (\(code))"
        case let .wrongFrameSize(expected, got):
            "Opus encoder expects \(expected) interleaved samples per frame, got \(got)"
        case let .encodeFailed(code, message):
            "Opus encode failed: \(message) (\(code))"
        case let .decodeFailed(code, message):
            "Opus decode failed: \(message) (\(code)); the packet is probably corrupt"
        case let .invalidConcealmentLength(samples):
            "cannot conceal \(samples) samples: use a multiple of 120 (2.5 ms) between 120 and 5760"
        case .emptyPacket:
            "empty Opus packet: a packet needs at least its TOC byte (RFC 6716 §3.1)"
        }
    }

    static func message(_ code: Int32) -> String {
        guard let text = opus_strerror(code) else { return "unknown error" }
        return String(cString: text)
    }
}
