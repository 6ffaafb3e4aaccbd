/// When the router asks its driver to send a push for an invitation (`SignalingRouterAction.push`).
public enum SignalingPushPolicy: String, Codable, Hashable, Sendable {
    /// Never: an invitee with no live connection is `unavailable` at once (protocol v1 without push).
    case off
    /// When the invitee has no live connection: the invitation waits for its ring time, and a
    /// device that registers meanwhile rings as if it had been connected all along.
    case whenOffline
    /// On every invitation, and devices that register while it rings ring too.
    case always
}
