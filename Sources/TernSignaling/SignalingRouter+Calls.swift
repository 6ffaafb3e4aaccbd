import TernCore

extension SignalingRouter {
    /// `invite`: rings every connection of the callee (of each invitee, for `firstAnswer`) except
    /// the caller's own; `group` invites go to `groupInvite`.
    mutating func invite(_ invite: Invite, from connection: SignalingConnectionID, user: String, now: Instant,
                         into out: inout [SignalingRouterAction])
    {
        let id = invite.callId
        guard validIdentifier(id) else { return refuse(connection, identifierError("callId"), into: &out) }
        guard invite.to.allSatisfy(validIdentifier), invite.mode != .oneToOne || invite.to.count == 1 else {
            return refuse(connection, identifierError("to", callId: id), into: &out)
        }
        let timeoutMs = invite.timeoutMs ?? limits.defaultTimeoutMs
        guard (1...limits.maxTimeoutMs).contains(timeoutMs) else {
            return refuse(connection, SignalingError(
                code: .invalidMessage, message: "timeoutMs must be 1 to \(limits.maxTimeoutMs)", callId: id), into: &out)
        }
        guard calls[ExactKey(id)] == nil, groups[ExactKey(id)] == nil else {
            return refuse(connection, SignalingError(
                code: .callIdInUse, message: "call id is in use; choose a fresh one (a UUID)", callId: id), into: &out)
        }
        let ongoing = calls.values.lazy.filter { $0.caller == connection }.count
            + groups.values.lazy.filter { $0.members.first?.connection == connection }.count
        guard ongoing < limits.maxCallsPerConnection else {
            return refuse(connection, SignalingError(
                code: .limitExceeded,
                message: "\(ongoing) calls already started on this connection (limit \(limits.maxCallsPerConnection))",
                callId: id), into: &out)
        }
        if invite.mode == .group {
            return groupInvite(invite, from: connection, user: user, now: now, timeoutMs: timeoutMs, into: &out)
        }
        if invite.mode == .firstAnswer, let error = inviteeError(invite.to, callId: id, caller: user, listed: 1) {
            return refuse(connection, error, into: &out)
        }
        accepted(connection)
        let devices = Set(invite.to.flatMap { devicesByUser[ExactKey($0), default: []] }).subtracting([connection]).sorted()
        guard !devices.isEmpty || push != .off else {
            // Nobody to ring: the caller gets a reject, like a callee would send.
            stats.invitesUnavailable += 1
            return send(.reject(callId: id, reason: .unavailable), to: connection, into: &out)
        }
        stats.invites += 1
        let policy = invite.rejectPolicy ?? .all
        var delivered = invite
        delivered.from = user
        delivered.timeoutMs = timeoutMs
        delivered.rejectPolicy = policy
        calls[ExactKey(id)] = SignalingCall(
            id: id, caller: connection, callerUser: user, calleeUsers: invite.to, devices: devices,
            invitation: push == .off ? nil : .invite(delivered), deadline: now + .milliseconds(timeoutMs),
            rejectPolicy: policy)
        for device in devices { send(.invite(delivered), to: device, into: &out) }
        for callee in invite.to where pushes(reachable: devicesByUser[ExactKey(callee), default: []].contains { $0 != connection }) {
            requestPush(delivered, to: callee, via: connection, ringMs: timeoutMs, into: &out)
        }
    }

    /// Looks up a call the sender takes part in; refuses with `notInCall` otherwise
    /// (the same answer whether the call does not exist or belongs to others).
    mutating func lookupCall(_ id: String, for connection: SignalingConnectionID, doing what: String,
                       into out: inout [SignalingRouterAction]) -> (SignalingCall, SignalingCall.Role)?
    {
        if let call = calls[ExactKey(id)] {
            let role = call.role(of: connection)
            if role != .outsider { return (call, role) }
        }
        refuse(connection, SignalingError(
            code: .notInCall, message: "cannot \(what): no such call, or this connection is not a party to it",
            callId: id), into: &out)
        return nil
    }

    func stateError(_ id: String, _ message: String) -> SignalingError {
        SignalingError(code: .invalidState, message: message, callId: id)
    }

    /// `ringing`: forwarded to the caller once, from the first device that rings.
    mutating func ringing(_ id: String, from connection: SignalingConnectionID, into out: inout [SignalingRouterAction]) {
        guard case let (call, role)? = lookupCall(id, for: connection, doing: "ring", into: &out) else { return }
        guard role == .ringingDevice else {
            return refuse(connection, stateError(id, "only a ringing callee device sends ringing"), into: &out)
        }
        accepted(connection)
        guard !call.ringingForwarded else { return }
        calls[ExactKey(id)]?.ringingForwarded = true
        send(.ringing(callId: id), to: call.caller, into: &out)
    }

    /// `accept`: the first accepting device wins; the others are told `answeredElsewhere`.
    mutating func accept(_ id: String, from connection: SignalingConnectionID, into out: inout [SignalingRouterAction]) {
        guard case let (call, role)? = lookupCall(id, for: connection, doing: "accept", into: &out) else { return }
        guard role == .ringingDevice else {
            return refuse(connection, stateError(id, role == .caller
                ? "the caller cannot accept its own call" : "the call is already answered"), into: &out)
        }
        accepted(connection)
        let others = call.ringingDevices.filter { $0 != connection }
        calls[ExactKey(id)]?.answeredBy = connection
        calls[ExactKey(id)]?.answererUser = connections[connection]?.user
        stats.accepts += 1
        send(.accept(callId: id), to: call.caller, into: &out)
        for device in others { send(.answeredElsewhere(callId: id), to: device, into: &out) }
    }

    /// `reject` from a ringing device: ends the call at once (policy `any`) or when no
    /// device rings any more (policy `all`).
    mutating func reject(_ id: String, reason: RejectReason, from connection: SignalingConnectionID,
                         into out: inout [SignalingRouterAction])
    {
        guard case let (_, role)? = lookupCall(id, for: connection, doing: "reject", into: &out) else { return }
        guard role == .ringingDevice else {
            return refuse(connection, stateError(id, role == .caller
                ? "the caller ends its call with cancel" : "the call is answered; end it with hangup"), into: &out)
        }
        accepted(connection)
        deviceGone(connection, from: id, reason: reason, into: &out)
    }

    /// Marks a ringing device as gone and ends the call if the policy says so.
    mutating func deviceGone(_ connection: SignalingConnectionID, from id: String, reason: RejectReason,
                             into out: inout [SignalingRouterAction])
    {
        guard var call = calls[ExactKey(id)] else { return }
        call.rejections[connection] = reason
        let remaining = call.ringingDevices
        if call.rejectPolicy == .any || remaining.isEmpty {
            let finalReason = call.rejectPolicy == .any ? reason : call.combinedRejectReason
            send(.reject(callId: id, reason: finalReason), to: call.caller, into: &out)
            for device in remaining { send(.rejectedElsewhere(callId: id), to: device, into: &out) }
            retire(call, as: .rejected)
        } else {
            calls[ExactKey(id)] = call
        }
    }

    /// `cancel` from the caller: ringing devices get `cancel`. On an answered call it
    /// acts as `hangup` (the caller's cancel crossed the callee's accept).
    mutating func cancel(_ id: String, from connection: SignalingConnectionID, into out: inout [SignalingRouterAction]) {
        guard case let (call, role)? = lookupCall(id, for: connection, doing: "cancel", into: &out) else { return }
        guard role == .caller else {
            return refuse(connection, stateError(id, "only the caller cancels; the callee sends reject or hangup"),
                          into: &out)
        }
        accepted(connection)
        end(call, by: connection, into: &out)
    }

    /// `hangup`: ends an answered call for both parties. From the caller of a ringing
    /// call it is `cancel`; from a ringing device it is `reject` with `declined`.
    mutating func hangup(_ id: String, from connection: SignalingConnectionID, into out: inout [SignalingRouterAction]) {
        guard case let (call, role)? = lookupCall(id, for: connection, doing: "hang up", into: &out) else { return }
        accepted(connection)
        if role == .ringingDevice {
            deviceGone(connection, from: id, reason: .declined, into: &out)
        } else {
            end(call, by: connection, into: &out)
        }
    }

    /// Ends `call` on behalf of `connection` (its caller or answerer).
    mutating func end(_ call: SignalingCall, by connection: SignalingConnectionID, into out: inout [SignalingRouterAction]) {
        if let peer = call.peer(of: connection) {
            send(.hangup(callId: call.id), to: peer, into: &out)
            retire(call, as: .ended)
        } else {
            for device in call.ringingDevices { send(.cancel(callId: call.id), to: device, into: &out) }
            retire(call, as: .cancelled)
        }
    }

    /// `description` and `candidate`: relayed to the other party of an answered call.
    mutating func relay(_ message: SignalingMessage, callId id: String, from connection: SignalingConnectionID,
                        into out: inout [SignalingRouterAction])
    {
        guard case let (call, _)? = lookupCall(id, for: connection, doing: "send \(message.type)", into: &out) else { return }
        guard let peer = call.peer(of: connection) else {
            return refuse(connection, stateError(id, "\(message.type) is relayed only after accept"), into: &out)
        }
        accepted(connection)
        send(message, to: peer, into: &out)
    }

    /// A connection went away: its answered calls hang up, its ringing calls are
    /// cancelled, and as a ringing device it counts as rejecting with `unavailable`.
    mutating func callsLost(_ connection: SignalingConnectionID, into out: inout [SignalingRouterAction]) {
        let involved = calls.values.filter { $0.role(of: connection) != .outsider }.sorted { $0.id < $1.id }
        for call in involved {
            switch call.role(of: connection) {
            case .caller, .answerer: end(call, by: connection, into: &out)
            case .ringingDevice: deviceGone(connection, from: call.id, reason: .unavailable, into: &out)
            case .outsider: break
            }
        }
        _ = groupsLost(connection, holding: false, into: &out)
    }
}
