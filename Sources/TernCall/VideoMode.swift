/// The direction of the video of a call, from the point of view of the side that holds
/// it. Raw values are the W3C `RTCRtpTransceiverDirection` strings.
public enum VideoMode: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Video both ways (bidirectional).
    case sendReceive = "sendrecv"
    /// This side sends video, the other side only watches.
    case sendOnly = "sendonly"
    /// This side only watches the other side's video.
    case receiveOnly = "recvonly"
    /// No video (the video transceiver is inactive).
    case disabled = "inactive"

    /// The same direction seen from the other side of the call.
    public var mirrored: VideoMode {
        switch self {
        case .sendReceive: .sendReceive
        case .sendOnly: .receiveOnly
        case .receiveOnly: .sendOnly
        case .disabled: .disabled
        }
    }

    /// Whether this side sends video in this mode.
    public var sends: Bool { self == .sendReceive || self == .sendOnly }

    public var description: String { rawValue }
}
