import TernCore

/// A call that ended, remembered for `callStatus`: what became of it for each user invited.
struct EndedCall: Codable, Sendable {
    var states: [ExactKey: CallStatusState]
}

/// Invitations delivered by push (Docs/SIGNALING.md "Invitations delivered by push"): the router
/// asks its driver to push an invitation, rings devices that register while it is pending, and
/// answers `callStatus` for a device a push woke.
extension SignalingRouter {
    /// Whether an invitee is pushed: always, or when none of its devices can ring.
    func pushes(reachable: Bool) -> Bool { push == .always || (push == .whenOffline && !reachable) }

    /// Asks the driver to push `invite` to `user`, through the node that holds `via` (the inviter).
    mutating func requestPush(_ invite: Invite, to user: String, via: SignalingConnectionID, ringMs: Int,
                              into out: inout [SignalingRouterAction])
    {
        stats.pushesRequested += 1
        out.append(.push(via, invite: invite, user: user, ringMs: ringMs))
    }

    /// `connection` just registered as `user`: with push on, every invitation still pending for
    /// `user` rings it too, as if it had been connected when the invite came.
    mutating func ringPending(_ connection: SignalingConnectionID, user: String, into out: inout [SignalingRouterAction]) {
        guard push != .off else { return }
        for key in calls.keys.sorted() {
            guard var call = calls[key], call.answeredBy == nil, call.caller != connection,
                  call.calleeUsers.contains(where: { $0.isExactly(user) }), !call.devices.contains(connection),
                  case .invite(let invite)? = call.invitation
            else { continue }
            call.devices.append(connection)
            calls[key] = call
            stats.pendingInvitesDelivered += 1
            send(.invite(invite), to: connection, into: &out)
        }
        for key in groups.keys.sorted() {
            guard var group = groups[key], let index = group.index(of: user), group.members[index].state.isPending,
                  !group.memberConnections.contains(connection)
            else { continue }
            group.members[index].devices.append(connection)
            groups[key] = group
            stats.pendingInvitesDelivered += 1
            send(.invite(deliveredInvite(group, member: index)), to: connection, into: &out)
        }
    }

    /// `callStatus`: where `id` stands for `user` (`unknown` to a user the call does not concern).
    mutating func callStatus(_ id: String, from connection: SignalingConnectionID, user: String,
                             into out: inout [SignalingRouterAction])
    {
        guard validIdentifier(id) else { return refuse(connection, identifierError("callId"), into: &out) }
        accepted(connection)
        let key = ExactKey(id)
        let me = ExactKey(user)
        var state = CallStatusState.unknown
        if let call = calls[key] {
            if call.calleeUsers.contains(where: { $0.isExactly(user) }) || call.callerUser.isExactly(user) {
                state = call.answeredBy == nil ? .ringing : .answered
            }
        } else if let group = groups[key], let index = group.index(of: user) {
            state = Self.status(of: group.members[index].state)
        } else if let ended = endedCalls[key], let known = ended.states[me] {
            state = known
        }
        send(.callStatus(callId: id, state: state), to: connection, into: &out)
    }

    static func status(of member: CallMember.State) -> CallStatusState {
        switch member {
        case .inviting, .ringing: .ringing
        case .accepted: .answered
        case .rejected: .rejected
        case .timeout: .timeout
        case .cancelled: .cancelled
        case .quit: .ended
        }
    }

    /// Removes a one-to-one or first-answer call, remembering `state` for its invitees.
    mutating func retire(_ call: SignalingCall, as state: CallStatusState) {
        calls[ExactKey(call.id)] = nil
        var states: [ExactKey: CallStatusState] = [:]
        for user in call.calleeUsers { states[ExactKey(user)] = state }
        // The invitees who did not answer a first-answer call learn it was answered elsewhere.
        if state == .ended, let answerer = call.answererUser {
            for user in call.calleeUsers where !user.isExactly(answerer) { states[ExactKey(user)] = .answered }
        }
        remember(call.id, states)
    }

    /// Remembers an ended group call: each member's last state.
    mutating func remember(_ group: SignalingGroupCall) {
        var states: [ExactKey: CallStatusState] = [:]
        for member in group.members { states[ExactKey(member.user)] = Self.status(of: member.state) }
        remember(group.id, states)
    }

    private mutating func remember(_ id: String, _ states: [ExactKey: CallStatusState]) {
        guard limits.maxRememberedCalls > 0 else { return }
        let key = ExactKey(id)
        if endedCalls.updateValue(EndedCall(states: states), forKey: key) == nil { endedOrder.append(key) }
        while endedOrder.count > limits.maxRememberedCalls { endedCalls[endedOrder.removeFirst()] = nil }
    }
}
