public import TernSignaling
public import TernCore

/// Placing, answering and ending calls, and the signaling messages about them.
extension CallClient {
    /// Places a call: sends the invite. The caller's state stays `NO_CALL` until the
    /// callee's `ringing` (then `RINGING`) or `accept` (then `CONNECTING`).
    /// - Parameters:
    ///   - callId: unique id of the call (1–128 bytes); the driver usually passes a UUID.
    ///   - callee: the user to call (every device it registered rings).
    ///   - media: what the call carries (audio, video, the data channel).
    ///   - attachedData: name/value pairs the callee sees with the invite.
    ///   - timeout: ring time (1–600000 ms); no answer by then ends the call with `noAnswer`.
    ///   - rejectPolicy: whether one device's reject ends the call (`any`) or all must reject (`all`).
    ///   - txCode: the application's transaction code, echoed in every output of this call.
    ///   - now: the current time (the core reads no clock).
    public mutating func call(callId: String, to callee: String, media: MediaOptions,
                              attachedData: [AttachedData] = [], timeout: Duration = .seconds(30),
                              rejectPolicy: RejectPolicy = .all, txCode: String, now: Instant) throws(CallError) -> [CallOutput] {
        guard state == .running else { throw .clientNotRunning(state) }
        if let active = activeCallId { throw .alreadyOnCall(callId: active) }
        guard (1...128).contains(callId.utf8.count) else { throw .invalidInvite("the call id must be 1–128 bytes") }
        guard !callee.isEmpty else { throw .invalidInvite("the callee is empty") }
        let timeoutMs = Int(timeout.nanoseconds / 1_000_000)
        guard (1...600_000).contains(timeoutMs) else {
            throw .invalidInvite("the ring time must be 1–600000 ms, not \(timeoutMs) ms")
        }
        let invite = Invite(callId: callId, to: callee, media: media, attachedData: attachedData,
                                timeoutMs: timeoutMs, rejectPolicy: rejectPolicy)
        var out: [CallOutput] = []
        currentCall = .outgoing(invite: invite, txCode: txCode, configuration: configuration, now: now, &out)
        return out
    }

    /// Answers the ringing incoming call: sends `accept`, `CONNECTING`; the driver
    /// gets `awaitOffer`. `txCode` replaces the one taken from the invite. `attachedData`: in a
    /// group call, this invitee's own data, which every member sees in `members` (a one-to-one
    /// accept carries none).
    public mutating func accept(media: MediaOptions, txCode: String? = nil, attachedData: [AttachedData] = [],
                                now: Instant) throws(CallError) -> [CallOutput] {
        guard state == .running else { throw .clientNotRunning(state) }
        if isInGroup {
            if let group = currentGroup {
                try checkMeshSize(group.invite.to.count, video: media.video || group.invite.media.video)
            }
            return try withGroup { (group, out) throws(CallError) in
                try group.accept(media: media, txCode: txCode, attachedData: attachedData, &out)
            }
        }
        return try withCall(nil) { (session, out) throws(CallError) in
            try session.accept(media: media, txCode: txCode, now: now, &out)
        }
    }

    /// Refuses the ringing incoming call (`attachedData`: as for `accept`, group calls only).
    public mutating func reject(reason: RejectReason = .declined, attachedData: [AttachedData] = [],
                                now: Instant) throws(CallError) -> [CallOutput] {
        if isInGroup {
            return try withGroup { (group, out) throws(CallError) in
                try group.reject(reason: reason, attachedData: attachedData, &out)
            }
        }
        return try withCall(nil) { (session, out) throws(CallError) in try session.reject(reason: reason, &out) }
    }

    /// Gives up the outgoing call before it is answered.
    public mutating func cancel(now: Instant) throws(CallError) -> [CallOutput] {
        if isInGroup {
            return try withGroup { (group, out) throws(CallError) in
                try group.cancelInvitations(group.members.filter { $0.state.isPending }.map(\.user), &out)
            }
        }
        return try withCall(nil) { (session, out) throws(CallError) in try session.cancel(&out) }
    }

    /// Ends the active call whatever its state (hang-up, cancel or decline). On a group call: the
    /// caller ends it for everyone, a member quits, an invitee declines.
    public mutating func hangUp(now: Instant) throws(CallError) -> [CallOutput] {
        if isInGroup {
            return try withGroup { (group, out) throws(CallError) in
                if group.isCaller { try group.endForEveryone(&out) } else { try group.quit(&out) }
            }
        }
        return try withCall(nil) { (session, out) throws(CallError) in try session.hangUp(&out) }
    }

    /// A message from the signaling connection (protocol v1, Docs/SIGNALING.md). An invite
    /// while another call is active is answered `reject` `busy` by the core itself (output
    /// `rejectedBusy`). Messages about other call ids, and messages that are not about a call's
    /// life cycle (descriptions and candidates go to the peer connection; queue messages to
    /// `receive(_:pendingPick:now:)`), are ignored, but for the answers to a `resume`:
    /// `resumed` and `error` `callGone`.
    public mutating func receive(_ signal: SignalingMessage, now: Instant) -> [CallOutput] {
        switch signal {
        case .resumed(let calls): return signalingResumed(calls, now: now)
        case .callStatus(let callId, let status): return receiveCallStatus(callId: callId, state: status, now: now)
        case .error(let error) where error.code == .callGone:
            return error.callId.map { signalingCallGone(callId: $0, now: now) } ?? []
        default: break
        }
        guard state == .running, signal.isCallLifecycle else { return [] }
        if let callId = signal.callId, let group = currentGroup, group.callId == callId {
            return ifGroup(callId) { group, out in group.receive(signal, now: now, &out) }
        }
        if case .invite(let invite) = signal, invite.mode == .group { return receiveGroupInvite(invite, now: now) }
        if case .invite(let invite) = signal, !(isOnCall && currentCall?.callId == invite.callId) {
            // (A repeated invite for the active call falls through to it and is ignored.)
            var out: [CallOutput] = []
            if isOnCall {
                out.append(.send(.reject(callId: invite.callId, reason: .busy)))
                out.append(.rejectedBusy(invite))
            } else {
                // The agent who picked our queue request calls: accepted at once, no ringing, when the
                // application allows it; otherwise it rings like any call, tagged with the request id.
                let request = takeAssignedRequest(for: invite)
                let txCode = invite.attachedData.value(named: "txCode") ?? request?.requestId ?? ""
                if request != nil, configuration.acceptsCallsFromQueueAgents {
                    currentCall = .acceptedFromQueue(invite: invite, txCode: txCode, configuration: configuration,
                                                     now: now, &out)
                } else {
                    currentCall = .incoming(invite: invite, txCode: txCode, configuration: configuration,
                                            now: now, &out)
                }
            }
            return out
        }
        guard let callId = signal.callId else { return [] }
        return ifCall(callId) { session, out in session.receive(signal, now: now, &out) }
    }
}
