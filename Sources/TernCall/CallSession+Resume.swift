/// Keeping a call through a lost signaling connection: the server holds it for a `resume`
/// from the client's next connection (the waiting itself: `ResumableCall`).
extension CallSession: ResumableCall {
    /// Whether the server holds this call when the signaling connection drops: answered calls,
    /// and outgoing calls still ringing (their caller is who the answer goes to).
    var isResumable: Bool {
        isAnswered || (role == .caller && (state == .noCall || state == .ringing))
    }
}
