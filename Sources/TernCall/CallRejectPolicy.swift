/// How rejects from several devices of the callee end a call (the invite's `rejectPolicy`,
/// Docs/SIGNALING.md "Several devices of one user"; mirrors TernSignaling's `RejectPolicy` so the
/// call core depends on TernCore only).
public enum CallRejectPolicy: String, Hashable, Sendable {
    /// The call fails only when every ringing device has rejected it (the default).
    case all
    /// The first reject ends the call; the other devices end `rejectedElsewhere` (the one-to-many
    /// call types of door-phone systems: one household member declining ends the ring everywhere).
    case any
}
