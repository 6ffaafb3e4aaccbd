/// What the router asks its driver to do, in order.
public enum SignalingRouterAction: Hashable, Sendable {
    /// Send `message` on `connection`.
    case send(SignalingConnectionID, SignalingMessage)
    /// Close `connection` (after sending what was queued before this action).
    case close(SignalingConnectionID, reason: String)
}
