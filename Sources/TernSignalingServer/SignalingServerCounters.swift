import Synchronization

/// What the server refused before a connection reached the router (the router's own refusals
/// are `SignalingSwitchboard.refusals`).
public final class SignalingServerCounters: Sendable {
    private let origins = Atomic<Int>(0)
    private let timeouts = Atomic<Int>(0)
    private let writes = Atomic<Int>(0)

    init() {}

    /// WebSocket upgrades refused for an `Origin` not in `SignalingServer.allowedOrigins`.
    public var originsRefused: Int { origins.load(ordering: .relaxed) }
    /// Connections closed because they had not upgraded within `SignalingServer.upgradeTimeout`.
    public var upgradeTimeouts: Int { timeouts.load(ordering: .relaxed) }

    /// Connections dropped because one frame could not be written within 10 s (the peer stopped reading).
    public var writeTimeouts: Int { writes.load(ordering: .relaxed) }

    func writeTimedOut() { writes.add(1, ordering: .relaxed) }
    func originRefused() { origins.add(1, ordering: .relaxed) }
    func upgradeTimedOut() { timeouts.add(1, ordering: .relaxed) }
}
