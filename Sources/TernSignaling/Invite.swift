/// The body of an `invite` message.
///
/// ```json
/// {"type":"invite","callId":"c1","to":"bob","media":{"audio":true,"video":true,"data":true},
///  "attachedData":[{"dataName":"k","dataValue":"v"}],"timeoutMs":30000,"rejectPolicy":"all"}
/// ```
public struct Invite: Hashable, Sendable {
    /// Chosen by the caller, unique on the server while the call lasts (a UUID is a good choice).
    public var callId: String
    /// The caller's user id. Set by the server on the invite it delivers; ignored when a
    /// client sends it (a connection can only call as the user it registered as).
    public var from: String?
    /// The callee's user id: every connection registered as this user rings.
    public var to: String
    /// What the caller intends to send (a hint for the callee's user interface).
    public var media: MediaOptions
    /// Ordered key/value pairs delivered to the callee and forgotten with the call.
    public var attachedData: [AttachedData]
    /// How long the server lets the call ring before sending `timeout` to both sides.
    /// `nil` means the server default (30 s).
    public var timeoutMs: Int?
    /// How rejects from several callee devices end the call; `nil` means `.all`.
    public var rejectPolicy: RejectPolicy?

    /// The ring time when an invite does not say (Docs/SIGNALING.md: 30 s).
    public static let defaultTimeoutMs = 30_000

    /// The ring time this invite asks for, or the default.
    public var ringTimeoutMs: Int { timeoutMs ?? Self.defaultTimeoutMs }

    /// Creates an invite.
    public init(callId: String, from: String? = nil, to: String, media: MediaOptions = .audioOnly,
                attachedData: [AttachedData] = [], timeoutMs: Int? = nil, rejectPolicy: RejectPolicy? = nil) {
        self.callId = callId
        self.from = from
        self.to = to
        self.media = media
        self.attachedData = attachedData
        self.timeoutMs = timeoutMs
        self.rejectPolicy = rejectPolicy
    }
}

extension Invite: CustomStringConvertible {
    /// `invite c1 alice → bob media {…} ring 30000ms`.
    public var description: String {
        "invite \(callId) \(from.map { $0 + " " } ?? "")→ \(to) media \(media) ring \(ringTimeoutMs)ms"
    }
}
