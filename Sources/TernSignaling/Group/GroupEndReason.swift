/// Why a group call ended, in the server's `ended` message.
public enum GroupEndReason: String, Codable, Hashable, Sendable {
    /// The caller ended it for everyone (`hangup` from the caller).
    case ended
    /// Nobody else remained: every other member left, rejected, timed out or was cancelled.
    case allLeft
}
