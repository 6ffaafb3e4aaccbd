/// Running totals of what a `SignalingRouter` did, for the server's `/metrics`.
public struct SignalingRouterStats: Codable, Sendable, Hashable {
    /// Invites that rang at least one device (a call was created).
    public var invites = 0
    /// Invites answered `reject` `unavailable` at once: nobody to ring.
    public var invitesUnavailable = 0
    /// Calls answered (`accept` forwarded to the caller).
    public var accepts = 0
    /// Calls a `resume` took over.
    public var callsResumed = 0
    /// Call ids a `resume` named that were gone (`callGone`).
    public var resumesGone = 0
    /// Held calls that ended because nobody resumed them in time (or too much was held).
    public var heldCallsExpired = 0
    /// Group calls started (`invite` with `mode` `group`).
    public var groupInvites = 0
    /// Invitations the router asked its driver to push.
    public var pushesRequested = 0
    /// Pending invitations delivered to a device that registered while they rang (push on).
    public var pendingInvitesDelivered = 0

    public init() {}
}

/// What a `SignalingRouter` holds right now, for the server's `/metrics` and `/health`.
public struct SignalingRouterGauges: Sendable, Hashable {
    /// Connections known to the router (registered or not).
    public var connections = 0
    /// Connections registered as a user.
    public var registered = 0
    /// Calls ringing (invited, not answered).
    public var callsRinging = 0
    /// Calls answered and not ended.
    public var callsAnswered = 0
    /// Dropped connections whose calls are held for a `resume`.
    public var connectionsAway = 0
    /// Messages waiting for those connections.
    public var messagesHeld = 0
    /// Queue requests waiting, over all queues.
    public var queueRequests = 0
    /// Group calls going on (ringing or answered; also counted in `callsRinging`/`callsAnswered`).
    public var groupCalls = 0

    public init() {}
}
