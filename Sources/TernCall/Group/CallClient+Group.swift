public import TernSignaling
public import TernCore

/// Group calls (a full mesh between members) and first-answer invitations: the entry points.
/// The one-to-one requests (`accept`, `reject`, `hangUp`) act on a group call when one is active.
extension CallClient {
    /// Places a call to several users. `mode` `group`: every invitee who accepts joins (a full
    /// mesh); `firstAnswer`: everyone rings and the first accept gets a one-to-one call.
    public mutating func call(callId: String, to users: [String], mode: InviteMode, media: MediaOptions,
                              attachedData: [AttachedData] = [], timeout: Duration = .seconds(30),
                              invitePolicy: InvitePolicy = .anyMember, txCode: String, now: Instant)
        throws(CallError) -> [CallOutput]
    {
        guard mode != .oneToOne else {
            guard users.count == 1 else { throw .invalidInvite("a one-to-one call has one callee") }
            return try call(callId: callId, to: users[0], media: media, attachedData: attachedData, timeout: timeout,
                            txCode: txCode, now: now)
        }
        guard state == .running else { throw .clientNotRunning(state) }
        if let active = activeCallId { throw .alreadyOnCall(callId: active) }
        guard (1...128).contains(callId.utf8.count) else { throw .invalidInvite("the call id must be 1–128 bytes") }
        guard !users.isEmpty, users.allSatisfy({ !$0.isEmpty }) else { throw .invalidInvite("an invitee is empty") }
        let timeoutMs = Int(timeout.nanoseconds / 1_000_000)
        guard (1...600_000).contains(timeoutMs) else {
            throw .invalidInvite("the ring time must be 1–600000 ms, not \(timeoutMs) ms")
        }
        var out: [CallOutput] = []
        if mode == .firstAnswer {
            let invite = Invite(callId: callId, to: users, mode: .firstAnswer, media: media, attachedData: attachedData,
                                timeoutMs: timeoutMs)
            currentCall = .outgoing(invite: invite, txCode: txCode, configuration: configuration, now: now, &out)
            return out
        }
        try checkMeshSize(users.count + 1, video: media.video)
        let invite = Invite(callId: callId, to: users, mode: .group, media: media, attachedData: attachedData,
                            timeoutMs: timeoutMs, invitePolicy: invitePolicy)
        currentGroup = .outgoing(invite: invite, localUser: localUser, txCode: txCode, configuration: configuration, &out)
        return out
    }

    func checkMeshSize(_ members: Int, video: Bool) throws(CallError) {
        let limit = video ? configuration.maxVideoMeshMembers : configuration.maxAudioMeshMembers
        guard members <= limit else { throw .groupTooLarge(members: members, limit: limit, video: video) }
    }

    /// The id of the active call, one-to-one or group.
    var activeCallId: String? {
        if let call = currentCall, call.isActive { return call.callId }
        if let group = currentGroup, group.isActive { return group.callId }
        return nil
    }

    /// Applies `body` to the active group call.
    mutating func withGroup(_ body: (inout GroupCallSession, inout [CallOutput]) throws(CallError) -> Void)
        throws(CallError) -> [CallOutput]
    {
        guard var group = currentGroup, group.isActive else { throw .noSuchCall(callId: nil) }
        var out: [CallOutput] = []
        try body(&group, &out)
        currentGroup = group
        return out
    }

    /// Whether the call `callId` (one-to-one or group) waits for the server's `resumed`: what this
    /// side sends for it meanwhile must wait too (the server takes it only from the new connection).
    public func isAwaitingResume(callId: String) -> Bool {
        (currentCall?.callId == callId && currentCall?.isAwaitingResume == true)
            || (currentGroup?.callId == callId && currentGroup?.isAwaitingResume == true)
    }

    /// Whether the active call is a group call.
    var isInGroup: Bool { currentGroup?.isActive == true }

    /// Invites more users into the running group call.
    public mutating func inviteMore(_ users: [String], timeout: Duration = .seconds(30), now: Instant) throws(CallError)
        -> [CallOutput]
    {
        if let group = currentGroup {
            let listed = Set(group.members.filter { $0.state.isPending || $0.state == .accepted }.map(\.user))
            try checkMeshSize(listed.union(users).count, video: group.media.video)
        }
        return try withGroup { (group, out) throws(CallError) in
            try group.inviteMore(users, timeoutMs: Int(timeout.nanoseconds / 1_000_000), &out)
        }
    }

    /// Cancels the invitation of users still ringing; the call goes on.
    public mutating func cancelInvitations(for users: [String], now: Instant) throws(CallError) -> [CallOutput] {
        try withGroup { (group, out) throws(CallError) in try group.cancelInvitations(users, &out) }
    }

    /// Leaves the group call; it goes on for the others.
    public mutating func quit(now: Instant) throws(CallError) -> [CallOutput] {
        try withGroup { (group, out) throws(CallError) in try group.quit(&out) }
    }

    /// The caller ends the group call for everyone.
    public mutating func endForEveryone(now: Instant) throws(CallError) -> [CallOutput] {
        try withGroup { (group, out) throws(CallError) in try group.endForEveryone(&out) }
    }

    /// A `sendMessage` to one member of the group call, or to every connected member (`nil`).
    public mutating func sendMessage(eventData: [AttachedData], to member: String?, now: Instant) throws(CallError)
        -> [CallOutput]
    {
        try withGroup { (group, out) throws(CallError) in try group.sendMessage(eventData, to: member, &out) }
    }

    /// A group invite arrived: it rings, or is answered busy while another call is active.
    mutating func receiveGroupInvite(_ invite: Invite, now: Instant) -> [CallOutput] {
        var out: [CallOutput] = []
        if isOnCall {
            out.append(.send(.reject(callId: invite.callId, reason: .busy)))
            out.append(.rejectedBusy(invite))
            return out
        }
        let txCode = invite.attachedData.value(named: "txCode") ?? ""
        currentGroup = .incoming(invite: invite, localUser: localUser, txCode: txCode, configuration: configuration,
                                 now: now, &out)
        return out
    }

    /// Applies `body` to the group call named `callId`, if it is the current one.
    mutating func ifGroup(_ callId: String, _ body: (inout GroupCallSession, inout [CallOutput]) -> Void) -> [CallOutput] {
        guard var group = currentGroup, group.callId == callId else { return [] }
        var out: [CallOutput] = []
        body(&group, &out)
        currentGroup = group
        return out
    }
}
