/// The server's answer to `callStatus`, for the asking user: whether the invitation a push
/// announced still rings. Raw values are the strings on the wire.
public enum CallStatusState: String, Codable, Hashable, Sendable {
    /// The invitation still rings for this user.
    case ringing
    /// The call was answered (on this user's behalf: by one of its devices, or by another
    /// invitee of a first-answer call) and goes on.
    case answered
    /// The caller gave up, or the invitation was cancelled.
    case cancelled
    /// Nobody answered in time.
    case timeout
    /// The invitation was rejected (by this user on another device, or by the call's policy).
    case rejected
    /// The call was answered and is over.
    case ended
    /// No call of this id that concerns this user (never existed, too old, or someone else's).
    case unknown
}
