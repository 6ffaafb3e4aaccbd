/// The body of an `invite` message.
///
/// ```json
/// {"type":"invite","callId":"c1","to":"bob","media":{"audio":true,"video":true,"data":true},
///  "attachedData":[{"dataName":"k","dataValue":"v"}],"timeoutMs":30000,"rejectPolicy":"all"}
/// {"type":"invite","callId":"g1","to":["bob","carol"],"mode":"group","media":{"audio":true}}
/// ```
public struct Invite: Hashable, Sendable {
    /// Chosen by the caller, unique on the server while the call lasts (a UUID is a good choice).
    public var callId: String
    /// The caller's user id (in a group call, the member who invited). Set by the server on the
    /// invite it delivers; ignored when a client sends it (a connection can only call as the
    /// user it registered as).
    public var from: String?
    /// The invitees' user ids: every connection registered as one of them rings. One for a
    /// one-to-one call (a string on the wire); a list for `group` and `firstAnswer`. On a group
    /// invite the server delivers, every member listed so far, the caller first.
    public var to: [String]
    /// One-to-one, group, or first-answer-wins.
    public var mode: InviteMode
    /// What the caller intends to send (a hint for the callee's user interface).
    public var media: MediaOptions
    /// Ordered key/value pairs delivered to the callee and forgotten with the call.
    public var attachedData: [AttachedData]
    /// How long the server lets the call ring before sending `timeout` to both sides.
    /// `nil` means the server default (30 s).
    public var timeoutMs: Int?
    /// How rejects from several callee devices end the call; `nil` means `.all`.
    public var rejectPolicy: RejectPolicy?
    /// Group calls: who may `inviteMore`; `nil` means `.anyMember`.
    public var invitePolicy: InvitePolicy?

    /// The ring time when an invite does not say (Docs/SIGNALING.md: 30 s).
    public static let defaultTimeoutMs = 30_000

    /// The ring time this invite asks for, or the default.
    public var ringTimeoutMs: Int { timeoutMs ?? Self.defaultTimeoutMs }

    /// The callee of a one-to-one call (the first invitee otherwise).
    public var callee: String { to.first ?? "" }

    /// A one-to-one invite.
    public init(callId: String, from: String? = nil, to: String, media: MediaOptions = .audioOnly,
                attachedData: [AttachedData] = [], timeoutMs: Int? = nil, rejectPolicy: RejectPolicy? = nil) {
        self.init(callId: callId, from: from, to: [to], mode: .oneToOne, media: media, attachedData: attachedData,
                  timeoutMs: timeoutMs, rejectPolicy: rejectPolicy)
    }

    /// An invite of any mode.
    public init(callId: String, from: String? = nil, to: [String], mode: InviteMode, media: MediaOptions = .audioOnly,
                attachedData: [AttachedData] = [], timeoutMs: Int? = nil, rejectPolicy: RejectPolicy? = nil,
                invitePolicy: InvitePolicy? = nil) {
        self.callId = callId
        self.from = from
        self.to = to
        self.mode = mode
        self.media = media
        self.attachedData = attachedData
        self.timeoutMs = timeoutMs
        self.rejectPolicy = rejectPolicy
        self.invitePolicy = invitePolicy
    }
}

extension Invite: CustomStringConvertible {
    /// `invite c1 alice → bob media {…} ring 30000ms`.
    public var description: String {
        let mode = self.mode == .oneToOne ? "" : " (\(self.mode.rawValue))"
        return "invite \(callId) \(from.map { $0 + " " } ?? "")→ \(to.joined(separator: ", "))\(mode) media \(media) ring \(ringTimeoutMs)ms"
    }
}
