/// The content of a signaling `invite` (Docs/SIGNALING.md, "invite").
public struct CallInvite: Hashable, Sendable, CustomStringConvertible {
    /// The call id chosen by the caller (1–128 bytes, unique on the server while the call lasts).
    public var callId: String
    /// The caller's user id: written by the server on delivery, empty on the way out.
    public var from: String
    /// The callee's user id.
    public var to: String
    /// The media the caller offers.
    public var media: CallMedia
    /// Ordered application data delivered to the callee with the invite.
    public var attachedData: [CallDataItem]
    /// The ring time in milliseconds (the server allows 1–600000).
    public var timeoutMs: Int
    /// How rejects from several devices of the callee end the call.
    public var rejectPolicy: CallRejectPolicy

    /// Creates an invite.
    public init(callId: String, from: String = "", to: String, media: CallMedia,
                attachedData: [CallDataItem] = [], timeoutMs: Int = 30_000, rejectPolicy: CallRejectPolicy = .all) {
        self.callId = callId
        self.from = from
        self.to = to
        self.media = media
        self.attachedData = attachedData
        self.timeoutMs = timeoutMs
        self.rejectPolicy = rejectPolicy
    }

    public var description: String {
        "invite \(callId) \(from.isEmpty ? "" : from + " ")→ \(to) media \(media) ring \(timeoutMs)ms"
    }
}
