/// One frame of signaling protocol v1: a JSON object discriminated by `type`
/// (Docs/SIGNALING.md has every message with examples).
///
/// Field names follow the W3C dictionaries (`RTCSessionDescriptionInit`,
/// `RTCIceCandidateInit`) so a web page or a script can be a peer.
public enum SignalingMessage: Hashable, Sendable {
    // Registration.
    /// Client → server: bind this connection to `user`. `token` is lowercase hex
    /// HMAC-SHA256(key: server secret, message: user) (`SignalingToken`), any string in
    /// open development mode.
    case register(user: String, token: String)
    /// Server → client: the connection now acts as `user`.
    case registered(user: String)

    // Calls.
    /// Caller → server → every device of the callee (with `from` set by the server).
    case invite(Invite)
    /// Callee device → server → caller (forwarded once, from the first device that rings).
    case ringing(callId: String)
    /// Callee device → server → caller: the call is answered by this device. In a group call
    /// `attachedData` is the invitee's own data, reported to every member in `members`.
    case accept(callId: String, attachedData: [AttachedData] = [])
    /// Callee device → server → caller, or server → caller with `.unavailable`. In a group call
    /// `attachedData` is reported in `members` as for `accept`.
    case reject(callId: String, reason: RejectReason, attachedData: [AttachedData] = [])
    /// Caller → server → ringing devices: the caller gave up before an answer.
    case cancel(callId: String)
    /// Either party of an answered call → server → the other party.
    case hangup(callId: String)
    /// Server → caller and ringing devices: nobody answered within `timeoutMs`.
    case timeout(callId: String)
    /// Server → the callee's other devices: one device accepted the call.
    case answeredElsewhere(callId: String)
    /// Server → the callee's other ringing devices: one device rejected and the invite's
    /// `rejectPolicy` is `any`, so the call is over everywhere.
    case rejectedElsewhere(callId: String)
    /// Party → server → other party of an answered call. In a group call the sender names the
    /// member it is for (`to`) and the server delivers it with the sender's user (`from`).
    case description(callId: String, description: SignalingSessionDescription, from: String? = nil, to: String? = nil)
    /// Party → server → other party of an answered call; `nil` is end of candidates. Addressed
    /// as `description` in a group call.
    case candidate(callId: String, candidate: SignalingICECandidate?, from: String? = nil, to: String? = nil)

    // Group calls (an `invite` with `mode` `group`).
    /// Server → every accepted member: where each member stands, whenever one changes.
    case members(callId: String, members: [CallMember])
    /// Member → server: invite more users into a running group call.
    case inviteMore(callId: String, to: [String], timeoutMs: Int?)
    /// Member → server: cancel the invitation of `to` (still ringing) without ending the call.
    /// The wire type is `cancel`, with `to`.
    case cancelInvitees(callId: String, to: [String])
    /// Member → server: leave the group call; it goes on for the others.
    case quit(callId: String)
    /// Server → every accepted member: the group call is over (the caller ended it, or nobody
    /// else remained).
    case ended(callId: String, reason: GroupEndReason)

    // Invitations delivered by push.
    /// Client → server (`state` absent): does this call still ring for me? Server → client: the
    /// answer (`state` set). A device woken by a push asks before it rings.
    case callStatus(callId: String, state: CallStatusState?)

    // Resuming calls after a dropped connection.
    /// Client → server, after `registered` on a new connection: take over the calls this user's
    /// dropped connection was a party to (held `SignalingLimits.resumeWindowMs` after the drop).
    case resume(callIds: [String])
    /// Server → client: the calls taken over, then the messages held for them while away.
    /// Each call that no longer exists gets an `error` with code `callGone` before this.
    case resumed(calls: [ResumedCall])

    // Queues (call-centre flow).
    /// Customer → server: wait in `queue`; answered by `queuePosition`.
    case enqueue(queue: String, requestId: String, attachedData: [AttachedData])
    /// Customer → server: leave the queue; answered by `dequeued`.
    case dequeue(queue: String, requestId: String)
    /// Server → customer: the request left the queue at its owner's request.
    case dequeued(queue: String, requestId: String)
    /// Server → customer: 1-based position, sent on enqueue and whenever it changes.
    case queuePosition(queue: String, requestId: String, position: Int)
    /// Agent → server: take the request at the head of `queue`.
    case pick(queue: String)
    /// Server → agent: the request picked; the agent then invites `customer`.
    case picked(queue: String, requestId: String, customer: String, attachedData: [AttachedData])
    /// Server → customer: `agent` picked the request and is about to invite you.
    case assigned(queue: String, requestId: String, agent: String)

    /// Server → client: a message was refused. The connection stays open.
    case error(SignalingError)

    /// The `type` string on the wire.
    public var type: String {
        switch self {
        case .register: "register"
        case .registered: "registered"
        case .invite: "invite"
        case .ringing: "ringing"
        case .accept: "accept"
        case .reject: "reject"
        case .cancel: "cancel"
        case .hangup: "hangup"
        case .timeout: "timeout"
        case .answeredElsewhere: "answeredElsewhere"
        case .rejectedElsewhere: "rejectedElsewhere"
        case .description: "description"
        case .candidate: "candidate"
        case .members: "members"
        case .inviteMore: "inviteMore"
        case .cancelInvitees: "cancel"
        case .quit: "quit"
        case .ended: "ended"
        case .callStatus: "callStatus"
        case .resume: "resume"
        case .resumed: "resumed"
        case .enqueue: "enqueue"
        case .dequeue: "dequeue"
        case .dequeued: "dequeued"
        case .queuePosition: "queuePosition"
        case .pick: "pick"
        case .picked: "picked"
        case .assigned: "assigned"
        case .error: "error"
        }
    }

    /// The call this message is about, if any.
    public var callId: String? {
        switch self {
        case .invite(let invite): invite.callId
        case .ringing(let id), .accept(let id, _), .reject(let id, _, _), .cancel(let id), .hangup(let id),
             .timeout(let id), .answeredElsewhere(let id), .rejectedElsewhere(let id), .description(let id, _, _, _),
             .candidate(let id, _, _, _), .members(let id, _), .inviteMore(let id, _, _), .cancelInvitees(let id, _),
             .quit(let id), .ended(let id, _), .callStatus(let id, _):
            id
        case .error(let error): error.callId
        default: nil
        }
    }

    /// Types a client may send; the others are sent by the server only.
    public static let clientTypes: Set<String> = [
        "register", "invite", "ringing", "accept", "reject", "cancel", "hangup",
        "description", "candidate", "resume", "enqueue", "dequeue", "pick",
        "inviteMore", "quit", "callStatus",
    ]

    /// Every type of protocol v1.
    public static let allTypes: Set<String> = clientTypes.union([
        "registered", "resumed", "members", "ended", "timeout", "answeredElsewhere", "rejectedElsewhere", "dequeued", "queuePosition", "picked", "assigned", "error",
    ])
}

extension SignalingMessage {
    /// Whether this is an `invite` (it names a call id that must not exist yet).
    var isInvite: Bool {
        if case .invite = self { return true }
        return false
    }

    /// True for the messages of a call's life cycle: invite, ringing, accept, reject, cancel,
    /// hangup, timeout, answeredElsewhere, rejectedElsewhere, and the group call's members,
    /// inviteMore, cancel with `to`, quit and ended.
    public var isCallLifecycle: Bool {
        switch self {
        case .invite, .ringing, .accept, .reject, .cancel, .hangup, .timeout, .answeredElsewhere, .rejectedElsewhere,
             .members, .inviteMore, .cancelInvitees, .quit, .ended: true
        default: false
        }
    }
}
