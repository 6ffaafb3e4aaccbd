public import TernCore

/// Everything that changes a `SignalingRouter`, as one value with its time: what a driver feeds
/// it. One node applies inputs as they happen (`SignalingSwitchboard`); several nodes put them
/// in one shared order first (`SignalingSequencer`, the PostgreSQL log) and each applies the
/// same inputs in the same order to its own router, so every node's router is the same and the
/// protocol's rules are written once (Docs/SIGNALING.md "Several nodes").
public enum SignalingRouterInput: Codable, Hashable, Sendable {
    /// A connection opened.
    case open(SignalingConnectionID)
    /// A text frame from a connection.
    case frame(SignalingConnectionID, text: String)
    /// A connection closed on purpose (calls end).
    case close(SignalingConnectionID)
    /// A connection was lost (calls held for a `resume`).
    case drop(SignalingConnectionID)
    /// The verifier's answer to a `verifyToken` action.
    case tokenVerified(SignalingConnectionID, user: String, role: SignalingRole?, error: SignalingError?)
    /// Time passed: deadlines due by now fire.
    case tick
    /// Every connection of a node that stopped (its process died): each is dropped.
    case nodeDown(node: UInt16)
}

extension SignalingRouter {
    /// Applies one input at `now`.
    public mutating func apply(_ input: SignalingRouterInput, now: Instant) -> [SignalingRouterAction] {
        switch input {
        case .open(let connection):
            open(connection: connection, now: now)
            return []
        case .frame(let connection, let text): return handle(connection: connection, text: text, now: now)
        case .close(let connection): return close(connection: connection, now: now)
        case .drop(let connection): return drop(connection: connection, now: now)
        case .tokenVerified(let connection, let user, let role, let error):
            let result: Result<SignalingRole, SignalingError> = if let role { .success(role) } else {
                .failure(error ?? SignalingError(code: .badToken, message: "the token was refused"))
            }
            return tokenVerified(connection: connection, user: user, result: result, now: now)
        case .tick:
            return nextTimeout.map { $0 <= now } == true ? handleTimeout(now: now) : []
        case .nodeDown(let node):
            // Its dropped connections are held already; its open ones drop now.
            var out: [SignalingRouterAction] = []
            for connection in connections.keys.filter({ $0.node == node }).sorted() {
                out += drop(connection: connection, now: now)
            }
            return out
        }
    }
}
