/// One member of a group call as the server reports it in `members`:
/// `{"user":"bob","state":"rejected","reason":"busy"}`.
public struct CallMember: Codable, Hashable, Sendable {
    /// Where an invitee's answer stands. Raw values are the strings on the wire.
    public enum State: String, Codable, Hashable, Sendable {
        /// Invited; no device has rung yet (none connected: the invitation waits for a push).
        case inviting
        /// At least one device rings.
        case ringing
        /// In the call (the caller is accepted from the start).
        case accepted
        /// Every device rejected (`reason` says why), or none could be reached.
        case rejected
        /// Nobody answered within the invite's `timeoutMs`.
        case timeout
        /// The invitation was cancelled before an answer (`cancel` with `to`, or the call ended).
        case cancelled
        /// Left the call (`quit`, a hang-up, or the connection went away for good).
        case quit

        /// Still being invited: `inviting` or `ringing`.
        public var isPending: Bool { self == .inviting || self == .ringing }
    }

    /// The member's user id.
    public var user: String
    /// Where the member stands.
    public var state: State
    /// Why, for `rejected`.
    public var reason: RejectReason?
    /// The member who invited this one (the caller for the first invitees; `nil` for the caller).
    public var invitedBy: String?
    /// The invitee's own data, sent with its `accept` or `reject` (absent on the wire when empty).
    public var attachedData: [AttachedData]

    /// Creates a member entry.
    public init(user: String, state: State, reason: RejectReason? = nil, invitedBy: String? = nil,
                attachedData: [AttachedData] = []) {
        self.user = user
        self.state = state
        self.reason = reason
        self.invitedBy = invitedBy
        self.attachedData = attachedData
    }

    private enum CodingKeys: String, CodingKey { case user, state, reason, invitedBy, attachedData }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        user = try c.decode(String.self, forKey: .user)
        state = try c.decode(State.self, forKey: .state)
        reason = try c.decodeIfPresent(RejectReason.self, forKey: .reason)
        invitedBy = try c.decodeIfPresent(String.self, forKey: .invitedBy)
        attachedData = try c.decodeIfPresent([AttachedData].self, forKey: .attachedData) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(user, forKey: .user)
        try c.encode(state, forKey: .state)
        try c.encodeIfPresent(reason, forKey: .reason)
        try c.encodeIfPresent(invitedBy, forKey: .invitedBy)
        if !attachedData.isEmpty { try c.encode(attachedData, forKey: .attachedData) }
    }
}

extension CallMember: CustomStringConvertible {
    /// `bob rejected(busy)`.
    public var description: String { "\(user) \(state.rawValue)\(reason.map { "(\($0))" } ?? "")" }
}
