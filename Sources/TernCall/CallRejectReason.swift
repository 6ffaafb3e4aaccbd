/// Why a callee (or the server) refused a call: the `reason` of a signaling `reject`
/// (Docs/SIGNALING.md, "ringing, accept, reject…"). Raw values are the wire strings.
public enum CallRejectReason: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The user declined.
    case declined
    /// The callee is already in a call (the callee's client answers this by itself).
    case busy
    /// Server-made: nobody to ring, or every ringing device left.
    case unavailable

    public var description: String { rawValue }
}
