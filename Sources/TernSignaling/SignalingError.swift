/// The body of an `error` message: why the server refused a message.
///
/// `{"type":"error","code":"notInCall","message":"…","callId":"c1"}`. The connection
/// stays open after an error (except after `tooManyErrors`).
public struct SignalingError: Error, Codable, Hashable, Sendable, CustomStringConvertible {
    /// Machine-readable reason.
    public var code: SignalingErrorCode
    /// Human-readable explanation, saying what to change.
    public var message: String
    /// The call the refused message was about, when there was one.
    public var callId: String?
    /// The queue request the refused message was about, when there was one.
    public var requestId: String?

    /// Creates an error body.
    public init(code: SignalingErrorCode, message: String, callId: String? = nil, requestId: String? = nil) {
        self.code = code
        self.message = message
        self.callId = callId
        self.requestId = requestId
    }

    public var description: String {
        var text = "\(code): \(message)"
        if let callId { text += " (call \(callId))" }
        if let requestId { text += " (request \(requestId))" }
        return text
    }
}
