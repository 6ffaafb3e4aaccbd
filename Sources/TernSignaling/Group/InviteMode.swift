/// What kind of call an `invite` starts. On the wire the `mode` field; absent means one-to-one
/// when `to` is a string and `group` when it is a list.
public enum InviteMode: String, Codable, Hashable, Sendable {
    /// Today's call between two users: every device of the callee rings, the first accept wins.
    case oneToOne
    /// Every invitee rings; each one's answer is tracked on its own, and every member who accepts
    /// joins the call (a full mesh of peer connections between members).
    case group
    /// Every invitee rings, the first accept gets the call and the others are told
    /// `answeredElsewhere`: a door-phone calling a household. The call is one-to-one once answered.
    case firstAnswer
}

/// Who may add invitees to a running group call (`inviteMore`); chosen by the caller's invite.
public enum InvitePolicy: String, Codable, Hashable, Sendable {
    /// Any member who accepted (the default).
    case anyMember
    /// The caller only.
    case callerOnly
}
