import TernCore

/// A connection that dropped while it had placed or answered calls: the calls stay up for a
/// `resume` from a new connection of the same user, and what the others send meanwhile waits.
struct AwayConnection: Codable, Sendable {
    let user: String
    /// When the calls end if no `resume` took them over (`SignalingLimits.resumeWindowMs`).
    let deadline: Instant
    /// The calls held, ascending.
    var callIds: [String]
    /// Messages for those calls, in order (`SignalingLimits.maxHeldMessages` at most).
    var held: [SignalingMessage] = []
}

extension SignalingRouter {
    /// Holds the calls `connection` placed or answered; as a ringing device it counts as rejecting
    /// with `unavailable`, as on a close (a device that dropped cannot answer).
    mutating func hold(_ connection: SignalingConnectionID, user: String, now: Instant,
                       into out: inout [SignalingRouterAction])
    {
        let involved = calls.values.filter { $0.role(of: connection) != .outsider }.sorted { $0.id < $1.id }
        var held: [String] = []
        for call in involved {
            switch call.role(of: connection) {
            case .caller, .answerer: held.append(call.id)
            case .ringingDevice: deviceGone(connection, from: call.id, reason: .unavailable, into: &out)
            case .outsider: break
            }
        }
        held += groupsLost(connection, holding: true, into: &out)
        guard !held.isEmpty else { return }
        away[connection] = AwayConnection(user: user, deadline: now + .milliseconds(limits.resumeWindowMs), callIds: held)
    }

    /// A message for a connection that is away waits for its `resume`; one more than
    /// `maxHeldMessages` ends its calls at once (the window could not be replayed whole).
    mutating func holdMessage(_ message: SignalingMessage, for connection: SignalingConnectionID,
                              into out: inout [SignalingRouterAction])
    {
        guard var party = away[connection] else { return }
        guard party.held.count < limits.maxHeldMessages else {
            away[connection] = nil
            endHeldCalls(of: connection, party, into: &out)
            return
        }
        party.held.append(message)
        away[connection] = party
    }

    /// Ends the calls of every away connection whose window has passed, as a close would have.
    mutating func expireAway(now: Instant, into out: inout [SignalingRouterAction]) {
        for connection in away.keys.sorted() {
            guard let party = away[connection], party.deadline <= now else { continue }
            away[connection] = nil
            endHeldCalls(of: connection, party, into: &out)
        }
    }

    private mutating func endHeldCalls(of connection: SignalingConnectionID, _ party: AwayConnection,
                                       into out: inout [SignalingRouterAction])
    {
        for id in party.callIds {
            if let group = groups[ExactKey(id)], case .member(let index) = group.role(of: connection) {
                stats.heldCallsExpired += 1
                var left = group
                left.members[index].state = .quit
                settle(left, into: &out)
                continue
            }
            guard let call = calls[ExactKey(id)], call.role(of: connection) != .outsider else { continue }
            stats.heldCallsExpired += 1
            end(call, by: connection, into: &out)
        }
    }

    /// `resume`: `connection` takes over the calls its user placed or answered on a connection that
    /// dropped (or that the server still thinks is open: a half-open socket, which is told
    /// `answeredElsewhere`). Answers `callGone` per call it cannot take over, then `resumed`, then
    /// the messages held for the calls taken over.
    mutating func resume(_ ids: [String], from connection: SignalingConnectionID, user: String,
                         into out: inout [SignalingRouterAction])
    {
        guard ids.count <= limits.maxResumeCallIds else {
            return refuse(connection, SignalingError(
                code: .invalidMessage, message: "resume names \(ids.count) calls (limit \(limits.maxResumeCallIds))"),
                into: &out)
        }
        guard ids.allSatisfy(validIdentifier) else { return refuse(connection, identifierError("callIds"), into: &out) }
        accepted(connection)
        var resumed: [ResumedCall] = []
        var replay: [SignalingMessage] = []
        for id in ids where !resumed.contains(where: { $0.callId == id }) {
            if groups[ExactKey(id)] != nil {
                if resumeGroup(id, on: connection, user: user, replay: &replay, into: &out) {
                    stats.callsResumed += 1
                    resumed.append(ResumedCall(callId: id, state: .answered))
                } else {
                    stats.resumesGone += 1
                    send(.error(SignalingError(code: .callGone, message: "the call has ended", callId: id)),
                         to: connection, into: &out)
                }
                continue
            }
            guard var call = calls[ExactKey(id)], let old = formerConnection(in: call, of: user, instead: connection) else {
                stats.resumesGone += 1
                send(.error(SignalingError(code: .callGone, message: "the call has ended", callId: id)),
                     to: connection, into: &out)
                continue
            }
            if old != connection {
                _ = call.reattach(old, to: connection)
                calls[ExactKey(id)] = call
                release(id, from: old, replay: &replay, into: &out)
            }
            stats.callsResumed += 1
            resumed.append(ResumedCall(callId: id, state: call.answeredBy == nil ? .ringing : .answered))
        }
        send(.resumed(calls: resumed), to: connection, into: &out)
        for message in replay { send(message, to: connection, into: &out) }
    }

    /// The connection through which `user` placed or answered `call`: one away first, then one
    /// still open (half-open), then `connection` itself (a repeated resume); nil if the user is
    /// no party to the call.
    private func formerConnection(in call: SignalingCall, of user: String, instead connection: SignalingConnectionID)
        -> SignalingConnectionID?
    {
        var parties: [SignalingConnectionID] = []
        if call.callerUser.isExactly(user) { parties.append(call.caller) }
        if call.answererUser?.isExactly(user) == true, let answerer = call.answeredBy { parties.append(answerer) }
        return parties.first { away[$0] != nil } ?? parties.first { $0 != connection } ?? parties.first
    }

    /// Takes over `user`'s place in group call `id` for `connection`; false if the user is not in it.
    private mutating func resumeGroup(_ id: String, on connection: SignalingConnectionID, user: String,
                                      replay: inout [SignalingMessage], into out: inout [SignalingRouterAction]) -> Bool
    {
        guard var group = groups[ExactKey(id)], let index = group.index(of: user), group.members[index].state == .accepted,
              let old = group.members[index].connection
        else { return false }
        guard old != connection else { return true }
        group.members[index].connection = connection
        groups[ExactKey(id)] = group
        release(id, from: old, replay: &replay, into: &out)
        return true
    }

    /// Call `id` moved off `old`: its held messages join `replay` (an away connection), or `old`
    /// (still open: half-open) is told `answeredElsewhere`.
    private mutating func release(_ id: String, from old: SignalingConnectionID, replay: inout [SignalingMessage],
                                  into out: inout [SignalingRouterAction])
    {
        if var party = away[old] {
            party.callIds.removeAll { $0 == id }
            replay += party.held.filter { $0.callId == id }
            party.held.removeAll { $0.callId == id }
            away[old] = party.callIds.isEmpty ? nil : party
        } else {
            send(.answeredElsewhere(callId: id), to: old, into: &out)
        }
    }
}
