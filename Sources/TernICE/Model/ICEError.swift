/// Why an ICE operation failed. Every case carries what a user needs to act on it.
public enum ICEError: Error, Equatable, Sendable, CustomStringConvertible {
    /// libnice refused to create the agent or its stream.
    case agentCreationFailed(reason: String)
    /// A configuration value is invalid (e.g. an unparsable server URL).
    case invalidConfiguration(reason: String)
    /// A candidate line could not be parsed.
    case malformedCandidate(sdp: String, reason: String)
    /// libnice rejected a remote candidate or credentials.
    case rejected(operation: String, reason: String)
    /// The transport was closed.
    case closed

    public var description: String {
        switch self {
        case let .agentCreationFailed(reason): "could not create the ICE agent: \(reason)"
        case let .invalidConfiguration(reason): "invalid ICE configuration: \(reason)"
        case let .malformedCandidate(sdp, reason): "malformed ICE candidate '\(sdp)': \(reason)"
        case let .rejected(operation, reason): "libnice rejected \(operation): \(reason)"
        case .closed: "the ICE transport is closed"
        }
    }
}
