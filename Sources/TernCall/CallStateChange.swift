/// A call's state change, tagged with the call id and the application's transaction code.
public struct CallStateChange: Hashable, Sendable, CustomStringConvertible {
    /// The call.
    public var callId: String
    /// The application's transaction code for this call.
    public var txCode: String
    /// The new state.
    public var state: CallSessionState
    /// Why the call ended (only with `ENDED`).
    public var reason: CallEndReason?

    /// Creates a state change.
    public init(callId: String, txCode: String, state: CallSessionState, reason: CallEndReason? = nil) {
        self.callId = callId
        self.txCode = txCode
        self.state = state
        self.reason = reason
    }

    public var description: String {
        "\(callId) [\(txCode)] \(state)" + (reason.map { " (\($0))" } ?? "")
    }
}
