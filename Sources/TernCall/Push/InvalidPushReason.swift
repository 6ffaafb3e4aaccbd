/// Why a push did not ring (`CallOutput.invalidPushCall`).
public enum InvalidPushReason: String, Hashable, Sendable, CustomStringConvertible {
    /// The signature is not the HMAC of the body under `CallConfiguration.pushSecret` (forged,
    /// altered, or the two sides configured with different secrets), or the body is not a push
    /// invitation.
    case badSignature
    /// The push names another user than this agent's.
    case notForThisUser
    /// Its ring time is over (by `expiresAt`, or the server says it timed out).
    case expired
    /// The caller gave up, the invitation was cancelled, or the server no longer knows the call.
    case cancelled
    /// Another device of this user (or, for a first-answer call, another invitee) answered it.
    case answeredElsewhere
    /// It was rejected on another device of this user.
    case rejectedElsewhere

    public var description: String { rawValue }
}
