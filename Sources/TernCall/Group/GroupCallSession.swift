public import TernSignaling
public import TernCore

/// One group call from this client's side, from invite to `ENDED`: a pure state machine driven
/// by `CallClient`, as `CallSession` is for one-to-one calls (Docs/CALL.md "Group calls").
///
/// The server tracks every member (`members`); this side keeps one leg per other accepted member
/// (a full mesh). The member who joins later makes the offer: on the first `members` after this
/// side accepted, it offers to every member already in; a member accepted after that offers to
/// it. Both rules follow from the server's one order of `members` updates, so offers never cross.
public struct GroupCallSession: Sendable, CustomStringConvertible {
    /// The call id.
    public let callId: String
    /// The application's transaction code.
    public internal(set) var txCode: String
    /// This client's user id.
    public let localUser: String
    /// Whether this side started the call (it may end it for everyone).
    public let isCaller: Bool
    /// The invite as sent (caller) or received.
    public let invite: Invite
    /// The media this side sends to every member.
    public internal(set) var media: MediaOptions
    /// `NO_CALL` → `RINGING` → `CONNECTING` (in the call, no leg up yet) → `IN_PROGRESS` → `ENDED`.
    public internal(set) var state: CallSessionState = .noCall
    /// Why the call ended, once `ENDED`.
    public internal(set) var endReason: CallEndReason?
    /// Every member as the server last reported them (this side included).
    public internal(set) var members: [CallMember] = []
    /// The legs to the other accepted members, by member, and whether each is connected.
    public internal(set) var legs: [String: CallConnectionStatus] = [:]

    /// The signaling connection was lost and the server's `resumed` (or `callGone`) has not come;
    /// what this side sends meanwhile waits in the driver.
    public internal(set) var isAwaitingResume = false

    let configuration: CallConfiguration
    var resumeDeadline: Instant?
    /// Whether the first `members` since this side was in the call has come (see the type's rule).
    var joined = false
    var ringDeadline: Instant?

    init(callId: String, txCode: String, localUser: String, isCaller: Bool, invite: Invite,
         configuration: CallConfiguration) {
        self.callId = callId
        self.txCode = txCode
        self.localUser = localUser
        self.isCaller = isCaller
        self.invite = invite
        self.media = invite.media
        self.configuration = configuration
    }

    public var isActive: Bool { state != .ended }

    /// Whether this side is in the call (accepted, not ended).
    public var isIn: Bool { state == .connecting || state == .inProgress }

    public var nextTimeout: Instant? { isActive ? [ringDeadline, resumeDeadline].compactMap { $0 }.min() : nil }

    public var description: String {
        "group \(callId) [\(txCode)] \(state) members \(members.map(\.description).joined(separator: ", "))"
            + (endReason.map { " (\($0))" } ?? "")
    }

    func leg(_ member: String) -> String { GroupCallLeg(callId: callId, member: member).key }

    mutating func enter(_ newState: CallSessionState, _ out: inout [CallOutput]) {
        guard state != newState else { return }
        state = newState
        out.append(.stateChanged(CallStateChange(callId: callId, txCode: txCode, state: newState)))
    }

    /// Ends this side's part: every leg closed, `ENDED(reason)`.
    mutating func end(_ reason: CallEndReason, _ out: inout [CallOutput]) {
        guard isActive else { return }
        ringDeadline = nil
        resumeDeadline = nil
        for member in legs.keys.sorted() { out.append(.action(.closePeer(callId: leg(member)))) }
        legs = [:]
        state = .ended
        endReason = reason
        out.append(.stateChanged(CallStateChange(callId: callId, txCode: txCode, state: .ended, reason: reason)))
    }

    // MARK: Starting

    /// Caller: sends the group invite; `NO_CALL` until an invitee rings.
    static func outgoing(invite: Invite, localUser: String, txCode: String, configuration: CallConfiguration,
                         _ out: inout [CallOutput]) -> GroupCallSession {
        let session = GroupCallSession(callId: invite.callId, txCode: txCode, localUser: localUser, isCaller: true,
                                       invite: invite, configuration: configuration)
        out.append(.send(.invite(invite)))
        return session
    }

    /// Invitee: rings; `ringing` goes to the server.
    static func incoming(invite: Invite, localUser: String, txCode: String, configuration: CallConfiguration,
                         now: Instant, _ out: inout [CallOutput]) -> GroupCallSession {
        var session = GroupCallSession(callId: invite.callId, txCode: txCode, localUser: localUser, isCaller: false,
                                       invite: invite, configuration: configuration)
        session.ringDeadline = now + .milliseconds(invite.ringTimeoutMs) + configuration.calleeRingGrace
        out.append(.incomingCall(invite, txCode: txCode))
        out.append(.send(.ringing(callId: invite.callId)))
        session.enter(.ringing, &out)
        return session
    }

    // MARK: Application requests

    mutating func accept(media: MediaOptions, txCode: String?, attachedData: [AttachedData] = [],
                         _ out: inout [CallOutput]) throws(CallError) {
        guard !isCaller, state == .ringing else { throw .invalidCallState(operation: "accept", state: state) }
        if let txCode { self.txCode = txCode }
        self.media = media
        ringDeadline = nil
        out.append(.send(.accept(callId: callId, attachedData: attachedData)))
        enter(.connecting, &out)
    }

    mutating func reject(reason: RejectReason, attachedData: [AttachedData] = [],
                         _ out: inout [CallOutput]) throws(CallError) {
        guard !isCaller, state == .ringing else { throw .invalidCallState(operation: "reject", state: state) }
        out.append(.send(.reject(callId: callId, reason: reason, attachedData: attachedData)))
        end(reason == .busy ? .busy : .rejected, &out)
    }

    /// Leaves the call; it goes on for the others.
    mutating func quit(_ out: inout [CallOutput]) throws(CallError) {
        guard isActive else { throw .invalidCallState(operation: "quit", state: state) }
        if state == .ringing { return try reject(reason: .declined, &out) }
        out.append(.send(.quit(callId: callId)))
        end(.localHangUp, &out)
    }

    /// The caller ends the call for everyone.
    mutating func endForEveryone(_ out: inout [CallOutput]) throws(CallError) {
        guard isCaller, isActive else { throw .invalidCallState(operation: "end the call for everyone", state: state) }
        out.append(.send(.hangup(callId: callId)))
        end(.localHangUp, &out)
    }

    mutating func inviteMore(_ users: [String], timeoutMs: Int, _ out: inout [CallOutput]) throws(CallError) {
        guard isIn || (isCaller && isActive) else { throw .invalidCallState(operation: "invite more", state: state) }
        out.append(.send(.inviteMore(callId: callId, to: users, timeoutMs: timeoutMs)))
    }

    mutating func cancelInvitations(_ users: [String], _ out: inout [CallOutput]) throws(CallError) {
        guard isIn || (isCaller && isActive) else { throw .invalidCallState(operation: "cancel invitations", state: state) }
        out.append(.send(.cancelInvitees(callId: callId, to: users)))
    }

    /// A `sendMessage` envelope to one member, or to every connected member.
    func sendMessage(_ data: [AttachedData], to member: String?, _ out: inout [CallOutput]) throws(CallError) {
        guard state == .inProgress else { throw .callNotInProgress(operation: "send a message", state: state) }
        let bytes = try ManageCallEnvelope(eventType: ManageCallEnvelope.EventType.sendMessage, data: data).encodedForSending()
        let targets = member.map { [$0] } ?? legs.filter { $0.value == .connected }.keys.sorted()
        guard let first = targets.first, member == nil || legs[first] == .connected else {
            throw .noSuchMember(callId: callId, member: member ?? "")
        }
        for target in targets { out.append(.sendManageCall(callId: leg(target), bytes: bytes)) }
    }

    // MARK: Network

    /// A signaling message about this call.
    mutating func receive(_ signal: SignalingMessage, now: Instant, _ out: inout [CallOutput]) {
        guard isActive else { return }
        switch signal {
        case .members(_, let members): update(members, &out)
        case .ended(_, let reason): end(reason == .ended ? .remoteHangUp : .allLeft, &out)
        case .timeout: if state == .ringing { end(.noAnswer, &out) }
        case .cancel: if state == .ringing { end(.cancelled, &out) }
        case .answeredElsewhere: if state == .ringing { end(.answeredElsewhere, &out) }
        case .rejectedElsewhere: if state == .ringing { end(.rejectedElsewhere, &out) }
        default: return
        }
    }

    /// The server's `members`: states reported, legs opened to newly accepted members (offering if
    /// this side is the newcomer) and closed to members who left.
    private mutating func update(_ members: [CallMember], _ out: inout [CallOutput]) {
        self.members = members
        out.append(.membersChanged(callId: callId, txCode: txCode, members: members))
        if isCaller, state == .noCall {
            if members.contains(where: { $0.state == .ringing || $0.state == .accepted && !$0.user.utf8.elementsEqual(localUser.utf8) }) {
                enter(.ringing, &out)
            }
        }
        // At most the mesh limit's legs, whatever the server lists (it bounds the members; this
        // side bounds the peer connections it opens): the earliest accepted members first.
        let limit = (media.video ? configuration.maxVideoMeshMembers : configuration.maxAudioMeshMembers) - 1
        let others = Array(members.filter { $0.state == .accepted && !$0.user.utf8.elementsEqual(localUser.utf8) }
            .map(\.user).prefix(max(0, limit)))
        if isCaller, !others.isEmpty, state == .noCall || state == .ringing { enter(.connecting, &out) }
        guard isIn else { return }
        let newcomer = !joined && !isCaller
        joined = true
        for member in others where legs[member] == nil {
            legs[member] = .connecting
            out.append(.action(newcomer ? .createOffer(callId: leg(member), media: media)
                                        : .awaitOffer(callId: leg(member), media: media)))
        }
        for member in legs.keys.sorted() where !others.contains(member) {
            legs[member] = nil
            out.append(.action(.closePeer(callId: leg(member))))
            out.append(.memberConnectionChanged(callId: callId, member: member, status: .failed))
        }
    }

    /// A leg's transport changed: the first leg up makes the call `IN_PROGRESS`; a failed leg closes.
    mutating func transport(_ event: CallTransportEvent, member: String, _ out: inout [CallOutput]) {
        guard isActive, let status = legs[member] else { return }
        switch event {
        case .connected:
            guard status != .connected else { return }
            legs[member] = .connected
            out.append(.memberConnectionChanged(callId: callId, member: member, status: .connected))
            if state == .connecting { enter(.inProgress, &out) }
        case .disconnected:
            return  // ICE may recover by itself; a failure closes the leg
        case .failed:
            legs[member] = nil
            out.append(.action(.closePeer(callId: leg(member))))
            out.append(.memberConnectionChanged(callId: callId, member: member, status: .failed))
        }
    }

    /// Bytes on a leg's `manage-call` channel: messages surface with the member who sent them.
    func receiveManageCall(_ bytes: [UInt8], member: String, _ out: inout [CallOutput]) {
        guard isIn else { return }
        do throws(ManageCallError) {
            let envelope = try ManageCallEnvelope.decode(bytes)
            guard envelope.eventType == ManageCallEnvelope.EventType.sendMessage else {
                throw .unknownEventType(envelope.eventType)
            }
            out.append(.memberEvent(callId: callId, member: member,
                                    event: ManageCallEvent(type: .messageReceived, data: envelope.data)))
        } catch {
            out.append(.manageCallError(callId: callId, txCode: txCode, error: error))
        }
    }

    mutating func handleTimeout(now: Instant, _ out: inout [CallOutput]) {
        guard isActive else { return }
        if let deadline = resumeDeadline, now >= deadline { return signalingResumeFailed(&out) }
        guard let deadline = ringDeadline, now >= deadline, state == .ringing else { return }
        end(.noAnswer, &out)
    }
}
