public import TernCore
import TernSignaling

/// Invitations that reached this device by push (Docs/CALL.md "Invitations delivered by push").
/// A push only says "a call may be ringing for you": the device connects (the server then delivers
/// the pending invite, which rings as usual) and asks `callStatus`; a push that is forged, stale,
/// cancelled or answered elsewhere surfaces as `invalidPushCall`, never as a ringing call.
extension CallClient {
    /// Push checks that may wait for a connection at once; more are refused (`cancelled`).
    static let maxPendingPushChecks = 16

    /// The app received a push: `body` exactly as sent and its `X-Tern-Signature`. `nowEpochMs`
    /// is this device's wall clock (milliseconds since 1970) for the expiry.
    public mutating func handlePush(body: [UInt8], signature: String, nowEpochMs: Int64, now: Instant) -> [CallOutput] {
        var out: [CallOutput] = []
        let invitation: PushInvitation
        do {
            invitation = try PushInvitation.verify(body: body, signature: signature, secret: configuration.pushSecret ?? "",
                                                   nowEpochMs: nowEpochMs)
        } catch {
            let reason: InvalidPushReason = if case .expired = error { .expired } else { .badSignature }
            // The call id of a body that failed its signature is not trusted, so not reported.
            out.append(.invalidPushCall(callId: nil, reason: reason, detail: "\(error)"))
            return out
        }
        guard configuration.pushSecret != nil else {
            out.append(.invalidPushCall(callId: nil, reason: .badSignature, detail: "no CallConfiguration.pushSecret to check it with"))
            return out
        }
        guard invitation.to.utf8.elementsEqual(localUser.utf8) else {
            out.append(.invalidPushCall(callId: invitation.callId, reason: .notForThisUser,
                                        detail: "the push is for \(invitation.to), this client is \(localUser)"))
            return out
        }
        if activeCallId == invitation.callId { return out }  // already ringing here
        guard pendingPushChecks.count < Self.maxPendingPushChecks else {
            out.append(.invalidPushCall(callId: invitation.callId, reason: .cancelled,
                                        detail: "\(Self.maxPendingPushChecks) pushes are being checked already"))
            return out
        }
        if !pendingPushChecks.contains(invitation.callId) { pendingPushChecks.append(invitation.callId) }
        switch state {
        case .running:
            out.append(.send(.callStatus(callId: invitation.callId, state: nil)))
        case .stopped, .failed:
            // Woken by the push: connect; registering delivers the pending invite, then we ask.
            if let started = try? start(now: now) { out += started }
        case .starting, .paused, .resuming:
            break  // asked once connected (`signalingConnected`)
        }
        return out
    }

    /// The status requests of pushes that waited for the connection.
    func pushStatusRequests() -> [CallOutput] {
        pendingPushChecks.map { .send(.callStatus(callId: $0, state: nil)) }
    }

    /// The server's answer to `callStatus`: still ringing (the invite rings, or already rang,
    /// here), or the reason the push is void.
    mutating func receiveCallStatus(callId: String, state status: CallStatusState?, now: Instant) -> [CallOutput] {
        guard let status, let index = pendingPushChecks.firstIndex(of: callId) else { return [] }
        pendingPushChecks.remove(at: index)
        let reason: InvalidPushReason? = switch status {
        case .ringing: nil
        case .answered, .ended: activeCallId == callId ? nil : .answeredElsewhere
        case .cancelled, .unknown: .cancelled
        case .timeout: .expired
        case .rejected: .rejectedElsewhere
        }
        guard let reason else { return [] }
        return [.invalidPushCall(callId: callId, reason: reason, detail: "the server says the call is \(status.rawValue)")]
    }
}
