/// Checks the token of a `register` for the signaling server's driver (the router asks for
/// it with `SignalingRouterAction.verifyToken` and takes the answer back with
/// `SignalingRouter.tokenVerified`). The JWT implementation is
/// `TernSignalingServer.SignalingTokens`; tests may supply their own.
public protocol SignalingTokenVerifier: Sendable {
    /// The role `token` grants `user`, or the error `register` is refused with (codes
    /// `badToken`, `tokenExpired`, `tokenNotYetValid`). A token proves one user id, compared
    /// byte for byte (`Ame\u{301}lie` is not `Amélie`).
    func verify(token: String, user: String) async -> Result<SignalingRole, SignalingError>
}
