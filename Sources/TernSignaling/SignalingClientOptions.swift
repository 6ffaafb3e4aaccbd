/// Behaviour a `SignalingClient` applies by itself, without the application.
public struct SignalingClientOptions: Sendable, Hashable {
    /// Accept, without asking the application, an invite from an agent who picked one
    /// of this client's queue requests (`assigned`, then `invite` from that agent). The
    /// invite is still delivered on `messages`, after the accept has been sent. Off by
    /// default: the application decides (see `CallConfiguration.acceptsCallsFromQueueAgents`).
    public var autoAcceptAssignedCalls = false
    /// Answer `reject` with `busy`, without delivering the invite, while this client
    /// already has `maxConcurrentCalls` answered calls. `nil` never rejects.
    public var maxConcurrentCalls: Int? = 1

    /// The defaults: assigned calls ring like others, busy while in one call.
    public init(autoAcceptAssignedCalls: Bool = false, maxConcurrentCalls: Int? = 1) {
        self.autoAcceptAssignedCalls = autoAcceptAssignedCalls
        self.maxConcurrentCalls = maxConcurrentCalls
    }
}
