import TernCore

/// Group calls (Docs/SIGNALING.md "Group calls"): an `invite` with `mode` `group` lists several
/// invitees; each one's answer is tracked on its own and reported to every accepted member with
/// `members`; members join, leave (`quit`) and invite more while the call runs. Descriptions and
/// candidates name the member they are for (`to`), so each pair of members has its own peer
/// connection (a full mesh: the member who joins later sends the offers).
extension SignalingRouter {
    /// `invite` with `mode` `group`.
    mutating func groupInvite(_ invite: Invite, from connection: SignalingConnectionID, user: String, now: Instant,
                              timeoutMs: Int, into out: inout [SignalingRouterAction])
    {
        let id = invite.callId
        if let error = inviteeError(invite.to, callId: id, caller: user, listed: 1) { return refuse(connection, error, into: &out) }
        accepted(connection)
        stats.groupInvites += 1
        var group = SignalingGroupCall(
            id: id, callerUser: user, media: invite.media, attachedData: invite.attachedData,
            rejectPolicy: invite.rejectPolicy ?? .all, invitePolicy: invite.invitePolicy ?? .anyMember,
            members: [SignalingGroupCall.Member(user: user, state: .accepted, connection: connection)])
        for invitee in invite.to {
            group.members.append(SignalingGroupCall.Member(user: invitee, state: .inviting, invitedBy: user))
        }
        for index in group.members.indices.dropFirst() {
            ring(&group, member: index, by: connection, ringMs: timeoutMs, now: now, into: &out)
        }
        settle(group, into: &out)
    }

    /// Why a list of invitees cannot be invited, if it cannot: empty, an id too long, the
    /// inviter itself, a user listed twice, or more members than `maxGroupMembers`.
    func inviteeError(_ users: [String], callId id: String, caller: String, listed: Int) -> SignalingError? {
        guard !users.isEmpty, users.allSatisfy(validIdentifier) else { return identifierError("to", callId: id) }
        guard listed + users.count <= limits.maxGroupMembers else {
            return SignalingError(code: .limitExceeded, message:
                "a group call lists at most \(limits.maxGroupMembers) members; this one would list \(listed + users.count)",
                callId: id)
        }
        guard Set(users.map(ExactKey.init)).count == users.count, !users.contains(where: { $0.isExactly(caller) }) else {
            return SignalingError(code: .invalidMessage, message: "to lists a user twice, or the inviter", callId: id)
        }
        return nil
    }

    /// Delivers the invitation of member `index` to each of its user's devices (not a connection
    /// already in the call); with none, it is `rejected` `unavailable`, or waits for a push.
    private mutating func ring(_ group: inout SignalingGroupCall, member index: Int, by inviter: SignalingConnectionID,
                               ringMs: Int, now: Instant, into out: inout [SignalingRouterAction])
    {
        let user = group.members[index].user
        let busy = Set(group.memberConnections)
        let devices = devicesByUser[ExactKey(user), default: []].filter { !busy.contains($0) }
        group.members[index].devices = devices
        group.members[index].deadline = now + .milliseconds(ringMs)
        group.members[index].ringMs = ringMs
        let invite = deliveredInvite(group, member: index)
        if devices.isEmpty, push == .off {
            group.members[index].state = .rejected
            group.members[index].reason = .unavailable
            stats.invitesUnavailable += 1
            return
        }
        for device in devices { send(.invite(invite), to: device, into: &out) }
        if pushes(reachable: !devices.isEmpty) { requestPush(invite, to: user, via: inviter, ringMs: ringMs, into: &out) }
    }

    /// The invite member `index`'s devices get: every member listed so far, the caller first.
    func deliveredInvite(_ group: SignalingGroupCall, member index: Int) -> Invite {
        let member = group.members[index]
        return Invite(callId: group.id, from: member.invitedBy ?? group.callerUser,
                      to: group.members.map(\.user), mode: .group, media: group.media,
                      attachedData: group.attachedData, timeoutMs: member.ringMs, rejectPolicy: group.rejectPolicy,
                      invitePolicy: group.invitePolicy)
    }

    /// Looks up a group call the sender takes part in; refuses with `notInCall` otherwise.
    mutating func lookupGroup(_ id: String, for connection: SignalingConnectionID, doing what: String,
                              into out: inout [SignalingRouterAction]) -> (SignalingGroupCall, SignalingGroupCall.Role)?
    {
        if let group = groups[ExactKey(id)] {
            let role = group.role(of: connection)
            if role != .outsider { return (group, role) }
        }
        refuse(connection, SignalingError(
            code: .notInCall, message: "cannot \(what): no such call, or this connection is not a party to it",
            callId: id), into: &out)
        return nil
    }

    /// A call message on a group call's id.
    mutating func dispatchGroup(_ message: SignalingMessage, id: String, from connection: SignalingConnectionID,
                                user: String, now: Instant, into out: inout [SignalingRouterAction])
    {
        guard case let (group, role)? = lookupGroup(id, for: connection, doing: message.type, into: &out) else { return }
        switch (message, role) {
        case (.ringing, .ringingDevice(let index)):
            accepted(connection)
            guard group.members[index].state == .inviting else { return }
            update(id) { $0.members[index].state = .ringing }
        case (.accept(_, let data), .ringingDevice(let index)):
            accepted(connection)
            stats.accepts += 1
            let others = group.members[index].ringingDevices.filter { $0 != connection }
            update(id) {
                $0.members[index].state = .accepted
                $0.members[index].attachedData = data
                $0.members[index].connection = connection
                $0.members[index].deadline = nil
            }
            for device in others { send(.answeredElsewhere(callId: id), to: device, into: &out) }
        case (.reject(_, let reason, let data), .ringingDevice(let index)):
            accepted(connection)
            if !data.isEmpty { update(id) { $0.members[index].attachedData = data } }
            memberDeviceGone(connection, member: index, of: id, reason: reason, into: &out)
        case (.hangup, .ringingDevice(let index)), (.quit, .ringingDevice(let index)):
            accepted(connection)
            memberDeviceGone(connection, member: index, of: id, reason: .declined, into: &out)
        case (.hangup, .member(0)):
            accepted(connection)
            return endGroup(id, reason: .ended, into: &out)
        case (.hangup, .member(let index)), (.quit, .member(let index)):
            accepted(connection)
            update(id) { $0.members[index].state = .quit }
        case (.inviteMore(_, let users, let timeoutMs), .member(let index)):
            return inviteMore(users, timeoutMs: timeoutMs, into: group, by: index, connection: connection, now: now, out: &out)
        case (.cancelInvitees(_, let users), .member(let index)):
            return cancelInvitees(users, in: group, by: index, connection: connection, out: &out)
        case (.cancel, .member(0)):
            return cancelInvitees(group.members.filter { $0.state.isPending }.map(\.user), in: group, by: 0,
                                  connection: connection, out: &out)
        case (.description(_, _, _, let to), .member(let index)), (.candidate(_, _, _, let to), .member(let index)):
            return relayInGroup(message, to: to, in: group, from: index, connection: connection, out: &out)
        default:
            let what: String = switch role {
            case .ringingDevice: "a ringing invitee sends ringing, accept or reject"
            case .member(0): "the caller of a group call sends hangup (end), quit, inviteMore, cancel or descriptions"
            default: "a member of a group call sends quit, inviteMore, cancel with to, or descriptions"
            }
            return refuse(connection, stateError(id, "\(message.type): \(what)"), into: &out)
        }
        if let group = groups[ExactKey(id)] { settle(group, into: &out) }
    }

    private mutating func update(_ id: String, _ change: (inout SignalingGroupCall) -> Void) {
        guard var group = groups.removeValue(forKey: ExactKey(id)) else { return }
        change(&group)
        groups[ExactKey(id)] = group
    }

    /// A ringing device of member `index` rejected or went away: the member is `rejected` once no
    /// device rings (or at once, with reject policy `any`).
    mutating func memberDeviceGone(_ device: SignalingConnectionID, member index: Int, of id: String,
                                   reason: RejectReason, into out: inout [SignalingRouterAction])
    {
        guard var group = groups[ExactKey(id)] else { return }
        group.members[index].rejections[device] = reason
        let remaining = group.members[index].ringingDevices
        if group.rejectPolicy == .any || remaining.isEmpty {
            group.members[index].reason = group.rejectPolicy == .any ? reason : group.members[index].combinedRejectReason
            group.members[index].state = .rejected
            for other in remaining { send(.rejectedElsewhere(callId: id), to: other, into: &out) }
        }
        groups[ExactKey(id)] = group
    }

    private mutating func inviteMore(_ users: [String], timeoutMs: Int?, into group: SignalingGroupCall, by index: Int,
                                     connection: SignalingConnectionID, now: Instant, out: inout [SignalingRouterAction])
    {
        let id = group.id
        guard index == 0 || group.invitePolicy == .anyMember else {
            return refuse(connection, SignalingError(
                code: .forbidden, message: "only the caller invites more to this call (invitePolicy callerOnly)",
                callId: id), into: &out)
        }
        let ringMs = timeoutMs ?? limits.defaultTimeoutMs
        guard (1...limits.maxTimeoutMs).contains(ringMs) else {
            return refuse(connection, SignalingError(
                code: .invalidMessage, message: "timeoutMs must be 1 to \(limits.maxTimeoutMs)", callId: id), into: &out)
        }
        // Users listed before and no longer in the call (rejected, quit, ...) are invited again in place.
        let fresh = users.filter { group.index(of: $0) == nil }
        let inviter = group.members[index].user
        if let error = inviteeError(users, callId: id, caller: inviter, listed: group.members.count - (users.count - fresh.count)) {
            return refuse(connection, error, into: &out)
        }
        if let busy = users.first(where: { user in group.index(of: user).map { group.members[$0].state.isPending
                || group.members[$0].state == .accepted } ?? false }) {
            return refuse(connection, stateError(id, "\(busy) is already in the call or being invited"), into: &out)
        }
        accepted(connection)
        var group = group
        // Listed first, then rung: each invite carries every member, the newcomers included.
        for user in users {
            let member = SignalingGroupCall.Member(user: user, state: .inviting, invitedBy: inviter)
            if let existing = group.index(of: user) { group.members[existing] = member } else { group.members.append(member) }
        }
        for user in users {
            if let at = group.index(of: user) { ring(&group, member: at, by: connection, ringMs: ringMs, now: now, into: &out) }
        }
        groups[ExactKey(id)] = group
        settle(group, into: &out)
    }

    private mutating func cancelInvitees(_ users: [String], in group: SignalingGroupCall, by index: Int,
                                         connection: SignalingConnectionID, out: inout [SignalingRouterAction])
    {
        let id = group.id
        guard index == 0 || group.invitePolicy == .anyMember else {
            return refuse(connection, SignalingError(
                code: .forbidden, message: "only the caller cancels invitations of this call (invitePolicy callerOnly)",
                callId: id), into: &out)
        }
        guard users.allSatisfy(validIdentifier) else { return refuse(connection, identifierError("to", callId: id), into: &out) }
        accepted(connection)
        var group = group
        for user in users {
            guard let at = group.index(of: user), group.members[at].state.isPending else { continue }
            for device in group.members[at].ringingDevices { send(.cancel(callId: id), to: device, into: &out) }
            group.members[at].state = .cancelled
        }
        groups[ExactKey(id)] = group
        settle(group, into: &out)
    }

    /// A description or candidate from member `index` for the accepted member `to`, delivered
    /// with `from` set to the sender.
    private mutating func relayInGroup(_ message: SignalingMessage, to target: String?, in group: SignalingGroupCall,
                                       from index: Int, connection: SignalingConnectionID,
                                       out: inout [SignalingRouterAction])
    {
        let id = group.id
        let sender = group.members[index].user
        guard let target, let at = group.index(of: target), at != index, group.members[at].state == .accepted,
              let peer = group.members[at].connection
        else {
            return refuse(connection, stateError(id,
                "\(message.type) in a group call names an accepted member other than the sender in to"), into: &out)
        }
        accepted(connection)
        switch message {
        case .description(_, let description, _, _):
            send(.description(callId: id, description: description, from: sender, to: target), to: peer, into: &out)
        case .candidate(_, let candidate, _, _):
            send(.candidate(callId: id, candidate: candidate, from: sender, to: target), to: peer, into: &out)
        default: break
        }
    }

    /// After a change: tells every accepted member where everyone stands, then ends the call if
    /// nobody else remains.
    mutating func settle(_ group: SignalingGroupCall, into out: inout [SignalingRouterAction]) {
        groups[ExactKey(group.id)] = group
        let members = group.wire
        for connection in group.memberConnections { send(.members(callId: group.id, members: members), to: connection, into: &out) }
        if group.isOver { endGroup(group.id, reason: .allLeft, into: &out) }
    }

    /// Ends a group call: pending invitations are cancelled, accepted members get `ended`.
    mutating func endGroup(_ id: String, reason: GroupEndReason, into out: inout [SignalingRouterAction]) {
        guard var group = groups.removeValue(forKey: ExactKey(id)) else { return }
        for index in group.members.indices {
            if group.members[index].state.isPending {
                for device in group.members[index].ringingDevices { send(.cancel(callId: id), to: device, into: &out) }
                group.members[index].state = .cancelled
            } else if group.members[index].state == .accepted, let connection = group.members[index].connection {
                send(.ended(callId: id, reason: reason), to: connection, into: &out)
                group.members[index].state = .quit
            }
        }
        remember(group)
    }

    /// Pending invitations whose deadline is not after `now` time out.
    mutating func expireGroupInvitations(now: Instant, into out: inout [SignalingRouterAction]) {
        let due = groups.values.filter { $0.nextDeadline.map { $0 <= now } == true }.map(\.id).sorted()
        for id in due {
            guard var group = groups[ExactKey(id)] else { continue }
            for index in group.members.indices where group.members[index].state.isPending {
                guard let deadline = group.members[index].deadline, deadline <= now else { continue }
                for device in group.members[index].ringingDevices { send(.timeout(callId: id), to: device, into: &out) }
                group.members[index].state = .timeout
            }
            settle(group, into: &out)
        }
    }

    /// `connection` went away: as a member it quits (or, if `holding`, its place is held for a
    /// `resume`); as a ringing device it counts as rejecting with `unavailable`. Returns the
    /// group calls held.
    mutating func groupsLost(_ connection: SignalingConnectionID, holding: Bool, into out: inout [SignalingRouterAction])
        -> [String]
    {
        var held: [String] = []
        for id in groups.keys.sorted().map(\.text) {
            guard let group = groups[ExactKey(id)] else { continue }
            switch group.role(of: connection) {
            case .member(let index):
                if holding { held.append(id); continue }
                update(id) { $0.members[index].state = .quit }
            case .ringingDevice(let index):
                memberDeviceGone(connection, member: index, of: id, reason: .unavailable, into: &out)
            case .outsider: continue
            }
            if let group = groups[ExactKey(id)] { settle(group, into: &out) }
        }
        return held
    }
}
