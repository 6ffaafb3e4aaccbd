/// Limits the router enforces; every one is documented in Docs/SIGNALING.md.
public struct SignalingLimits: Codable, Sendable, Hashable {
    /// Largest frame the router decodes (256 KiB); larger → `frameTooLarge`, connection kept.
    public var maxFrameBytes = 256 * 1024
    /// Longest user id, call id, queue name or request id, in UTF-8 bytes.
    public var maxIdentifierBytes = 128
    /// Connections that may be registered as one user at once.
    public var maxDevicesPerUser = 16
    /// Calls one connection may have started and not yet ended.
    public var maxCallsPerConnection = 64
    /// Requests waiting in one queue.
    public var maxQueueLength = 1_000
    /// Requests one connection may have waiting, over all queues.
    public var maxRequestsPerConnection = 16
    /// Ring time when an invite gives no `timeoutMs`.
    public var defaultTimeoutMs = 30_000
    /// Longest ring time an invite may ask for.
    public var maxTimeoutMs = 600_000
    /// Refused messages in a row after which the server closes the connection.
    public var maxConsecutiveErrors = 100
    /// How long a connection may stay open without registering before it is closed.
    public var registerTimeoutMs = 10_000
    /// Messages a connection may send per second on average (a token bucket)…
    public var messagesPerSecond = 50
    /// …and at once: past both, messages are refused with `rateLimited` (and count as errors).
    public var messageBurst = 200

    /// How long the calls of a connection that dropped (no `hangup`) are held for a `resume` from
    /// a new connection of the same user; 0 ends them at once, as a close does.
    public var resumeWindowMs = 30_000
    /// Messages held for a dropped connection's calls while it is away; one more ends them.
    public var maxHeldMessages = 64
    /// Call ids one `resume` may name.
    public var maxResumeCallIds = 16

    /// Members a group call may list, the caller and every invitee included (a user invited
    /// again counts once).
    public var maxGroupMembers = 16
    /// Ended calls remembered for `callStatus` (the oldest is forgotten first).
    public var maxRememberedCalls = 1_024

    /// The protocol v1 defaults.
    public init() {}
}
