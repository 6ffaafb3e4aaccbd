/// What the router asks its driver to do, in order.
public enum SignalingRouterAction: Hashable, Sendable {
    /// Send `message` on `connection`.
    case send(SignalingConnectionID, SignalingMessage)
    /// Close `connection` (after sending what was queued before this action).
    case close(SignalingConnectionID, reason: String)
    /// Check `token` for `user` (`SignalingTokenVerifier`) and hand the answer back with
    /// `SignalingRouter.tokenVerified`; until then the connection is not registered.
    case verifyToken(SignalingConnectionID, user: String, token: String)
    /// Push `invite` to `user`'s devices through the application's webhook (`PushInvitation`),
    /// retrying until `ringMs` from now. Performed by the node that holds the inviting
    /// connection (`SignalingPushPolicy`).
    case push(SignalingConnectionID, invite: Invite, user: String, ringMs: Int)
}
