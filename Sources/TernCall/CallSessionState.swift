/// The state of one call, as an application sees it. Raw values are the exact strings
/// of the call facade.
///
/// ```
///            invite in / ringing in          accept            transport connected
/// NO_CALL ───────────────────────▶ RINGING ─────────▶ CONNECTING ─────────────▶ IN_PROGRESS
///    │                                │                    │                         │
///    └──── reject, cancel, timeout, hang-up, failures ─────┴────────▶ ENDED ◀────────┘
/// ```
///
/// The caller stays in `NO_CALL` after sending the invite until the callee's first
/// `ringing` arrives: `RINGING` is the state "while the other side rings". An `accept`
/// that overtakes `ringing` moves the caller straight to `CONNECTING`.
public enum CallSessionState: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Initial: no call yet (a caller waiting for the first `ringing` is here too).
    case noCall = "NO_CALL"
    /// The callee's device rings (both sides).
    case ringing = "RINGING"
    /// Accepted by both sides; the peer transport is being set up.
    case connecting = "CONNECTING"
    /// The driver reported the transport connected: media and data flow.
    case inProgress = "IN_PROGRESS"
    /// Over; see the `CallEndReason`. Terminal.
    case ended = "ENDED"

    public var description: String { rawValue }
}
