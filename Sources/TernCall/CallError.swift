/// Why the call core refused an application request. Nothing is sent when it throws.
public enum CallError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Calls can be placed or answered only while the client is `running`.
    case clientNotRunning(CallClientState)
    /// The operation needs another client state (e.g. `start` while running).
    case invalidClientState(operation: String, state: CallClientState)
    /// One call at a time: this one is still active.
    case alreadyOnCall(callId: String)
    /// No active call (or not the one named).
    case noSuchCall(callId: String?)
    /// The call is not in a state that allows the operation.
    case invalidCallState(operation: String, state: CallSessionState)
    /// The operation needs the call `IN_PROGRESS` (manage-call events, video changes).
    case callNotInProgress(operation: String, state: CallSessionState)
    /// The call is IN_PROGRESS but its `manage-call` data channel has not opened yet (it opens
    /// just after the transport); retry shortly.
    case manageChannelNotOpen(operation: String)
    /// A video request is already waiting for its answer.
    case videoRequestPending(requestId: String)
    /// No video request from the other side is waiting for an answer.
    case noVideoRequest
    /// The envelope would exceed the manage-call size limit.
    case envelopeTooLarge(size: Int, limit: Int)
    /// The invite is invalid (empty id or callee, ring time out of 1–600000 ms).
    case invalidInvite(String)
    /// The queue request is invalid (empty queue name or id, or the id already waits here).
    case invalidQueueRequest(String)
    /// No queue request of this client has that id.
    case noSuchQueueRequest(requestId: String)
    /// The group call has no connected leg to that member.
    case noSuchMember(callId: String, member: String)
    /// A full mesh of this many members is past `CallConfiguration.maxVideoMeshMembers` (video)
    /// or `maxAudioMeshMembers`.
    case groupTooLarge(members: Int, limit: Int, video: Bool)

    public var description: String {
        switch self {
        case .clientNotRunning(let state):
            "the call client is \(state): calls can be placed or answered only while it is running"
        case .invalidClientState(let operation, let state): "cannot \(operation) while the call client is \(state)"
        case .alreadyOnCall(let id): "already on call \(id): hang it up first (one call at a time)"
        case .noSuchCall(let id): id.map { "no active call with id \($0)" } ?? "no active call"
        case .invalidCallState(let operation, let state): "cannot \(operation) a call in state \(state)"
        case .callNotInProgress(let operation, let state):
            "cannot \(operation): the call is \(state), not IN_PROGRESS"
        case .manageChannelNotOpen(let operation):
            "cannot \(operation): the manage-call data channel is not open yet (it opens just after IN_PROGRESS); retry shortly"
        case .videoRequestPending(let id): "video request \(id) is still waiting for an answer"
        case .noVideoRequest: "no video request from the other side is waiting for an answer"
        case .envelopeTooLarge(let size, let limit):
            "the manage-call envelope would be \(size) bytes, over the \(limit)-byte limit"
        case .invalidInvite(let reason): "invalid invite: \(reason)"
        case .invalidQueueRequest(let reason): "invalid queue request: \(reason)"
        case .noSuchQueueRequest(let id): "no queue request with id \(id) is waiting"
        case .noSuchMember(let id, let member): "group call \(id) has no connected member \(member)"
        case .groupTooLarge(let members, let limit, let video):
            "a mesh of \(members) members is past the limit of \(limit) for \(video ? "video" : "audio-only") calls: every member sends to every other (raise CallConfiguration.max\(video ? "Video" : "Audio")MeshMembers if the links and CPUs can carry it; past that, an SFU)"
        }
    }
}
