import TernCore

/// Keeping a group call through a lost signaling connection: the server holds this member's place
/// for a `resume` (Docs/SIGNALING.md "Group calls"); the legs' media never touched the server.
extension GroupCallSession {
    /// Whether the server holds this member's place when the connection drops: once it is in the
    /// call (the caller from the start). A ringing invitation is lost (the device counts as gone).
    var isResumable: Bool { isActive && (isCaller || isIn) }

    mutating func awaitResume(now: Instant, _ out: inout [CallOutput]) {
        isAwaitingResume = true
        resumeDeadline = now + configuration.signalingResumeTimeout
        out.append(.signalingStatusChanged(callId: callId, txCode: txCode, status: .reconnecting))
    }

    mutating func signalingResumed(_ out: inout [CallOutput]) {
        guard isAwaitingResume else { return }
        isAwaitingResume = false
        resumeDeadline = nil
        if isActive { out.append(.signalingStatusChanged(callId: callId, txCode: txCode, status: .connected)) }
    }

    /// `callGone`, the resume timed out, or the client gave up reconnecting.
    mutating func signalingResumeFailed(_ out: inout [CallOutput]) {
        guard isAwaitingResume else { return }
        isAwaitingResume = false
        resumeDeadline = nil
        guard isActive else { return }
        out.append(.signalingStatusChanged(callId: callId, txCode: txCode, status: .failed))
        end(.signalingLost, &out)
    }
}
