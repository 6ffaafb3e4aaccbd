/// A local RTP transceiver as JSEP sees it (RFC 9429 §3.4.1; W3C `RTCRtpTransceiver`), without media.
public struct Transceiver: Sendable, Equatable {
    /// Audio or video.
    public let kind: MediaKind
    /// The mid of the associated m= section; nil until an offer or answer associates it.
    public internal(set) var mid: String?
    /// The direction this side wants (W3C `direction`).
    public var direction: RTPDirection
    /// The direction last negotiated (W3C `currentDirection`); nil before negotiation or when stopped.
    public internal(set) var currentDirection: RTPDirection?
    /// Codecs in preference order, with the payload types to offer; empty means the configuration's defaults.
    public var codecPreferences: [RTPCodec]
    /// Sender identity written when this side sends; nil writes no ssrc/msid lines.
    public var sender: SenderParameters?
    /// True once stopped (W3C `stopped`): its m= section has port 0 from the next negotiation on.
    public internal(set) var isStopped: Bool
    /// True when `stop()` was called but the stop is not yet negotiated (W3C "stopping").
    public internal(set) var isStopping: Bool
    /// True when created by a remote offer rather than by `addTransceiver` (W3C `[[Receptive]]`-like).
    public internal(set) var createdByRemote: Bool
    /// The codecs last negotiated, with the payload types in use.
    public internal(set) var negotiatedCodecs: [RTPCodec]

    /// Creates an unassociated transceiver.
    public init(kind: MediaKind, direction: RTPDirection = .sendrecv, codecPreferences: [RTPCodec] = [],
                sender: SenderParameters? = nil) {
        self.kind = kind
        self.mid = nil
        self.direction = direction
        self.currentDirection = nil
        self.codecPreferences = codecPreferences
        self.sender = sender
        self.isStopped = false
        self.isStopping = false
        self.createdByRemote = false
        self.negotiatedCodecs = []
    }
}
