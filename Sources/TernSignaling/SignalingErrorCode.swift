/// The `code` of an `error` message. Extensible: a client decodes codes it does not
/// know into a value too, and should treat them like `invalidMessage`.
public struct SignalingErrorCode: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible {
    /// The string on the wire.
    public var rawValue: String

    /// Wraps a code string.
    public init(rawValue: String) { self.rawValue = rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }

    /// The frame is not JSON.
    public static let badJSON = SignalingErrorCode(rawValue: "badJson")
    /// The frame is JSON but not a valid message: not an object, a missing or
    /// mistyped field, an id that is empty or too long.
    public static let invalidMessage = SignalingErrorCode(rawValue: "invalidMessage")
    /// `type` names no message of protocol v1.
    public static let unknownType = SignalingErrorCode(rawValue: "unknownType")
    /// A message only the server sends (`registered`, `timeout`, `error`, ...).
    public static let serverOnlyType = SignalingErrorCode(rawValue: "serverOnlyType")
    /// The frame is larger than 256 KiB.
    public static let frameTooLarge = SignalingErrorCode(rawValue: "frameTooLarge")
    /// Anything but `register` before `registered`.
    public static let notRegistered = SignalingErrorCode(rawValue: "notRegistered")
    /// `register` with a token that is not a JWT signed with the server's secret (HS256), names
    /// another user (`sub`), lacks `exp`, or has a `role` other than `user` or `agent`.
    public static let badToken = SignalingErrorCode(rawValue: "badToken")
    /// `register` with a token whose `exp` has passed.
    public static let tokenExpired = SignalingErrorCode(rawValue: "tokenExpired")
    /// `register` with a token whose `nbf` is still to come.
    public static let tokenNotYetValid = SignalingErrorCode(rawValue: "tokenNotYetValid")
    /// The token's role does not allow the message (`pick` needs `role: agent`).
    public static let forbidden = SignalingErrorCode(rawValue: "forbidden")
    /// `register` as another user on a connection that is already registered.
    public static let alreadyRegistered = SignalingErrorCode(rawValue: "alreadyRegistered")
    /// The user already has the maximum number of registered connections.
    public static let tooManyDevices = SignalingErrorCode(rawValue: "tooManyDevices")
    /// The call does not exist, or the sending connection is not a party to it.
    public static let notInCall = SignalingErrorCode(rawValue: "notInCall")
    /// `resume` of a call that has ended (or never was this user's): the client ends it.
    public static let callGone = SignalingErrorCode(rawValue: "callGone")
    /// An invite reuses the `callId` of a call that is still going on.
    public static let callIdInUse = SignalingErrorCode(rawValue: "callIdInUse")
    /// The message does not fit the call's state (e.g. `description` before `accept`).
    public static let invalidState = SignalingErrorCode(rawValue: "invalidState")
    /// `pick` on a queue with nobody waiting.
    public static let queueEmpty = SignalingErrorCode(rawValue: "queueEmpty")
    /// `dequeue` of a request this connection does not have in that queue.
    public static let unknownRequest = SignalingErrorCode(rawValue: "unknownRequest")
    /// `enqueue` with a `requestId` already waiting in that queue.
    public static let duplicateRequest = SignalingErrorCode(rawValue: "duplicateRequest")
    /// A per-connection or per-queue limit was reached (calls, queue length).
    public static let limitExceeded = SignalingErrorCode(rawValue: "limitExceeded")
    /// More messages than `SignalingLimits.messagesPerSecond` / `messageBurst` allow.
    public static let rateLimited = SignalingErrorCode(rawValue: "rateLimited")
    /// Too many refused messages in a row; the server closes the connection after this.
    public static let tooManyErrors = SignalingErrorCode(rawValue: "tooManyErrors")
}
