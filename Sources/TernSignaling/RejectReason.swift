/// Why a call was rejected. Raw values are the strings on the wire.
public enum RejectReason: String, Codable, Hashable, Sendable {
    /// The user (or the application for them) declined the call.
    case declined
    /// The device is in another call; its client answers this by itself.
    case busy
    /// Sent by the server only: the callee has no registered connection, or every
    /// ringing device went away.
    case unavailable
}

extension RejectReason: CaseIterable, CustomStringConvertible {
    /// The wire string.
    public var description: String { rawValue }
}
