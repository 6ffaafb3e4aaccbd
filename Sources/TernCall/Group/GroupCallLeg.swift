/// One pair of a group call's full mesh: this client and one other member, with its own peer
/// connection and `manage-call` channel. The driver keys the pair's transport objects by `key`.
public struct GroupCallLeg: Hashable, Sendable {
    /// The group call.
    public var callId: String
    /// The other member.
    public var member: String

    /// Creates a leg.
    public init(callId: String, member: String) {
        self.callId = callId
        self.member = member
    }

    /// The id the core's actions and the driver's tables use for this pair (`createOffer`,
    /// `awaitOffer`, `closePeer`, `sendManageCall`): the call id and the member, split by a
    /// byte no identifier of protocol v1 can carry unnoticed (U+001F, unit separator).
    public var key: String { callId + "\u{1F}" + member }

    /// The leg a key names, if it names one.
    public init?(key: String) {
        guard let split = key.firstIndex(of: "\u{1F}") else { return nil }
        callId = String(key[..<split])
        member = String(key[key.index(after: split)...])
    }
}
