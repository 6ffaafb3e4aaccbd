/// One call of a `resumed` message: `{"callId":"c1","state":"answered"}`.
public struct ResumedCall: Codable, Hashable, Sendable {
    /// Where the call stood when the connection took it over.
    public enum State: String, Codable, Hashable, Sendable {
        /// Invited and not answered yet (the connection is its caller).
        case ringing
        /// Answered: descriptions and candidates flow again.
        case answered
    }

    /// The call id.
    public var callId: String
    /// Ringing or answered.
    public var state: State

    /// Creates an entry.
    public init(callId: String, state: State) {
        self.callId = callId
        self.state = state
    }
}
