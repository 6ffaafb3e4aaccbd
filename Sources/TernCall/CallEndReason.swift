/// Why a call reached `ENDED`.
public enum CallEndReason: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The callee declined (`reject` `declined` or `unavailable`), or this side rejected.
    case rejected
    /// The callee was busy (`reject` `busy`), or this side answered busy.
    case busy
    /// Nobody answered within the ring time (server `timeout` or the local ring timer).
    case noAnswer
    /// The caller cancelled before an answer (seen by both sides).
    case cancelled
    /// The other party hung up.
    case remoteHangUp
    /// This side hung up.
    case localHangUp
    /// `CONNECTING` lasted longer than `CallConfiguration.connectTimeout`, or the
    /// transport failed before it ever connected.
    case connectFailed
    /// The transport was lost during the call and ICE restarts did not bring it back.
    case disconnected
    /// Another device of this user answered the call.
    case answeredElsewhere
    /// Another device of this user rejected the call.
    case rejectedElsewhere
    /// The signaling connection was lost and the call could not be resumed on a new one (the
    /// server answered `callGone`, or `CallConfiguration.signalingResumeTimeout` passed).
    case signalingLost
    /// Group call: nobody else remained (every other member left, rejected, timed out or was cancelled).
    case allLeft

    public var description: String { rawValue }
}
