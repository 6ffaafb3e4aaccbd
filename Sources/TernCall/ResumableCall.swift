import TernCore

/// A call the server can hold through a lost signaling connection (Docs/SIGNALING.md "resume,
/// resumed"): a one-to-one `CallSession` or a `GroupCallSession`. The waiting is the same for
/// both, written once here: `reconnecting`, then `connected` on `resumed`, or `failed` and
/// `ENDED(signalingLost)`.
protocol ResumableCall {
    var callId: String { get }
    var txCode: String { get }
    var isActive: Bool { get }
    var configuration: CallConfiguration { get }
    var isAwaitingResume: Bool { get set }
    var resumeDeadline: Instant? { get set }
    mutating func end(_ reason: CallEndReason, _ out: inout [CallOutput])
}

extension ResumableCall {
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
