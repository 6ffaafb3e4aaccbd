import TernSignaling
import TernCore

/// The signaling half of a call: invite, ringing, accept, reject, cancel, hangup,
/// timeout and the several-devices messages (Docs/SIGNALING.md).
extension CallSession {
    /// Caller: sends the invite. The state stays `NO_CALL` until `ringing` arrives.
    static func outgoing(invite: Invite, txCode: String, configuration: CallConfiguration,
                         now: Instant, _ out: inout [CallOutput]) -> CallSession {
        var session = CallSession(role: .caller, invite: invite, txCode: txCode, configuration: configuration)
        session.ringDeadline = now + .milliseconds(invite.ringTimeoutMs) + configuration.callerRingGrace
        out.append(.send(.invite(invite)))
        return session
    }

    /// Callee: the invite rings; `ringing` goes back to the caller.
    static func incoming(invite: Invite, txCode: String, configuration: CallConfiguration,
                         now: Instant, _ out: inout [CallOutput]) -> CallSession {
        var session = CallSession(role: .callee, invite: invite, txCode: txCode, configuration: configuration)
        session.ringDeadline = now + .milliseconds(invite.ringTimeoutMs) + configuration.calleeRingGrace
        out.append(.incomingCall(invite, txCode: txCode))
        out.append(.send(.ringing(callId: invite.callId)))
        session.enter(.ringing, &out)
        return session
    }

    /// Callee of a queue request's agent: accepted at once (`CONNECTING`, no `RINGING`).
    static func acceptedFromQueue(invite: Invite, txCode: String, configuration: CallConfiguration,
                                  now: Instant, _ out: inout [CallOutput]) -> CallSession {
        var session = CallSession(role: .callee, invite: invite, txCode: txCode, configuration: configuration)
        out.append(.incomingCall(invite, txCode: txCode))
        out.append(.send(.accept(callId: invite.callId)))
        session.answered(now: now, &out)
        out.append(.action(.awaitOffer(callId: invite.callId, media: invite.media)))
        return session
    }

    var isUnanswered: Bool { state == .noCall || state == .ringing }

    /// A signaling message about this call.
    mutating func receive(_ signal: SignalingMessage, now: Instant, _ out: inout [CallOutput]) {
        guard isActive else { return }
        switch signal {
        case .invite:
            return // a duplicate invite for this call id; the first one is ringing
        case .ringing:
            if role == .caller, state == .noCall { enter(.ringing, &out) }
        case .accept:
            guard role == .caller, isUnanswered else { return }
            answered(now: now, &out)
            out.append(.action(.createOffer(callId: callId, media: media)))
        case .reject(_, let reason, _):
            guard isUnanswered else { return }
            end(reason == .busy ? .busy : .rejected, &out)
        case .timeout:
            if isUnanswered { end(.noAnswer, &out) }
        case .cancel:
            // The server turns a caller's `cancel` on an answered call into `hangup`; a `cancel`
            // that reaches us means the server took it before our `accept` (which it then refused
            // with notInCall): for both sides the call was cancelled, not answered and hung up.
            end(.cancelled, &out)
        case .hangup:
            // A ringing device's `hangup` acts as `reject` declined (Docs/SIGNALING.md).
            end(role == .caller && isUnanswered ? .rejected : .remoteHangUp, &out)
        case .answeredElsewhere:
            if role == .callee, state == .ringing { end(.answeredElsewhere, &out) }
        case .rejectedElsewhere:
            if role == .callee, state == .ringing { end(.rejectedElsewhere, &out) }
        default:
            return  // not about a call's life cycle (`CallClient.receive` does not pass these)
        }
    }

    /// Both sides agreed: `CONNECTING`, the connect timer runs.
    mutating func answered(now: Instant, _ out: inout [CallOutput]) {
        ringDeadline = nil
        connectDeadline = now + configuration.connectTimeout
        enter(.connecting, &out)
    }

    /// Callee: answers the ringing call.
    mutating func accept(media: MediaOptions, txCode: String?, now: Instant,
                         _ out: inout [CallOutput]) throws(CallError) {
        guard role == .callee, state == .ringing else {
            throw .invalidCallState(operation: "accept", state: state)
        }
        if let txCode { self.txCode = txCode }
        self.media = media
        videoMode = media.video ? .sendReceive : .disabled
        out.append(.send(.accept(callId: callId)))
        answered(now: now, &out)
        out.append(.action(.awaitOffer(callId: callId, media: media)))
    }

    /// Callee: refuses the ringing call.
    mutating func reject(reason: RejectReason, _ out: inout [CallOutput]) throws(CallError) {
        guard role == .callee, state == .ringing else {
            throw .invalidCallState(operation: "reject", state: state)
        }
        out.append(.send(.reject(callId: callId, reason: reason)))
        end(reason == .busy ? .busy : .rejected, &out)
    }

    /// Caller: gives up before an answer.
    mutating func cancel(_ out: inout [CallOutput]) throws(CallError) {
        guard role == .caller, isUnanswered else {
            throw .invalidCallState(operation: "cancel", state: state)
        }
        out.append(.send(.cancel(callId: callId)))
        end(.cancelled, &out)
    }

    /// Either side, any active state: hang up an answered call, cancel an unanswered
    /// outgoing one, decline a ringing incoming one.
    mutating func hangUp(_ out: inout [CallOutput]) throws(CallError) {
        guard isActive else { throw .invalidCallState(operation: "hang up", state: state) }
        if isAnswered {
            out.append(.send(.hangup(callId: callId)))
            end(.localHangUp, &out)
        } else if role == .caller {
            try cancel(&out)
        } else {
            try reject(reason: .declined, &out)
        }
    }
}
