/// Delivers the invitations the router asks to push (`SignalingRouterAction.push`) to the
/// application's backend, which turns them into APNs/FCM/VoIP pushes. The webhook
/// implementation is `TernSignalingServer.SignalingPushWebhook`; tests may supply their own.
public protocol SignalingPushSender: Sendable {
    /// When the router asks for pushes.
    var policy: SignalingPushPolicy { get }
    /// Pushes `invite` (as the invitee's devices get it) to `user`; the invitation rings for
    /// `ringMs` from now. Returns at once: retries, if any, are the sender's own business.
    func push(_ invite: Invite, to user: String, ringMs: Int)
}
