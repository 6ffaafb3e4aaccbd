/// Keeping a group call through a lost signaling connection: the server holds this member's place
/// for a `resume` (Docs/SIGNALING.md "Group calls"); the legs' media never touched the server. The
/// waiting itself: `ResumableCall`.
extension GroupCallSession: ResumableCall {
    /// Whether the server holds this member's place when the connection drops: once it is in the
    /// call (the caller from the start). A ringing invitation is lost (the device counts as gone).
    var isResumable: Bool { isActive && (isCaller || isIn) }
}
