/// Why a VP8 encoder or decoder call failed.
public enum VP8Error: Error, Sendable, Equatable, CustomStringConvertible {
    /// libvpx rejected the configuration or could not initialise.
    case initializationFailed(message: String)
    /// A control setting (`vpx_codec_control`) was rejected.
    case controlRejected(setting: String, message: String)
    /// The frame handed to the encoder does not match the configured size.
    case frameSizeMismatch(expectedWidth: Int, expectedHeight: Int, width: Int, height: Int)
    /// The configuration is out of range (size, frame rate, bitrate).
    case invalidConfiguration(String)
    /// `vpx_codec_encode` failed.
    case encodeFailed(message: String)
    /// `vpx_codec_decode` failed, typically on a corrupt or incomplete frame.
    case decodeFailed(message: String)
    /// The decoder returned a picture in a format other than I420.
    case unsupportedImageFormat(rawValue: UInt32)
    /// A keyframe declares a picture larger than the decoder accepts (`VP8Decoder.maximumSize`).
    case frameTooLarge(width: Int, height: Int, maximumWidth: Int, maximumHeight: Int)

    public var description: String {
        switch self {
        case let .initializationFailed(message): "VP8 initialisation failed: \(message)"
        case let .controlRejected(setting, message): "VP8 rejected \(setting): \(message)"
        case let .frameSizeMismatch(ew, eh, w, h):
            "VP8 encoder configured for \(ew)x\(eh) was given a \(w)x\(h) frame; create a new encoder for a new size"
        case let .invalidConfiguration(reason): "invalid VP8 configuration: \(reason)"
        case let .encodeFailed(message): "VP8 encode failed: \(message)"
        case let .decodeFailed(message): "VP8 decode failed: \(message); request a keyframe"
        case let .unsupportedImageFormat(raw): "VP8 decoder produced image format \(raw), expected I420"
        case let .frameTooLarge(w, h, mw, mh):
            "VP8 keyframe declares \(w)x\(h), over the decoder's limit of \(mw)x\(mh) (VP8Decoder maximumSize); frame dropped"
        }
    }
}
