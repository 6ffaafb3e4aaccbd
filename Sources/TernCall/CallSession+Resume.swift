import TernCore

/// Keeping a call through a lost signaling connection: the server holds it for a `resume`
/// from the client's next connection (Docs/SIGNALING.md "Resuming calls").
extension CallSession {
    /// Whether the server holds this call when the signaling connection drops: answered calls,
    /// and outgoing calls still ringing (their caller is who the answer goes to).
    var isResumable: Bool {
        isAnswered || (role == .caller && (state == .noCall || state == .ringing))
    }

    /// The signaling connection was lost: wait for a new one to `resume` the call.
    mutating func awaitResume(now: Instant, _ out: inout [CallOutput]) {
        isAwaitingResume = true
        resumeDeadline = now + configuration.signalingResumeTimeout
        out.append(.signalingStatusChanged(callId: callId, txCode: txCode, status: .reconnecting))
    }

    /// The server's `resumed` named this call: signaling flows again.
    mutating func signalingResumed(_ out: inout [CallOutput]) {
        guard isAwaitingResume else { return }
        isAwaitingResume = false
        resumeDeadline = nil
        if isActive { out.append(.signalingStatusChanged(callId: callId, txCode: txCode, status: .connected)) }
    }

    /// The server answered `callGone`, the resume timed out, or the client gave up reconnecting.
    mutating func signalingResumeFailed(_ out: inout [CallOutput]) {
        guard isAwaitingResume else { return }
        isAwaitingResume = false
        resumeDeadline = nil
        guard isActive else { return }
        out.append(.signalingStatusChanged(callId: callId, txCode: txCode, status: .failed))
        end(.signalingLost, &out)
    }
}
