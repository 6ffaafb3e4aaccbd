/// What a registered user may do, from the `role` claim of its token (Docs/SIGNALING.md
/// "Tokens"). Only agents `pick` queue requests: a pick reads the customer's attached data
/// and makes the customer's client expect the picker's call.
public enum SignalingRole: String, Codable, Hashable, Sendable, CaseIterable {
    /// Calls, answers, queues requests.
    case user
    /// Everything a user does, and `pick`.
    case agent
}
