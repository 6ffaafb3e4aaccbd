/// The state of the call client: its signaling connection, seen from the application.
///
/// ```
/// stopped ─start─▶ starting ─connected─▶ running ─lost─▶ paused ─backoff─▶ resuming
///                     │                     ▲                ▲                │
///                     │ connect failed      └─── connected ──┼────────────────┤
///                     ▼                                      └─ connect failed┘
///                   failed ◀──────────── maxReconnectAttempts exhausted
/// ```
/// Calls can be placed or received only while `running`.
public enum CallClientState: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Not connected and not trying.
    case stopped
    /// The first signaling connection is being made.
    case starting
    /// Connected and registered: calls can be placed and received.
    case running
    /// The signaling connection was lost; waiting for the next reconnect attempt.
    case paused
    /// A reconnect attempt is under way.
    case resuming
    /// Gave up (first connection failed, or every reconnect attempt failed). `start` again to retry.
    case failed

    public var description: String { rawValue }
}
