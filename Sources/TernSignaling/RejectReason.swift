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

extension RejectReason {
    /// What the caller is told when every ringing device is gone: declined over busy over
    /// unavailable (devices that left, or none).
    static func combined(_ reasons: some Sequence<RejectReason>) -> RejectReason {
        let reasons = Set(reasons)
        if reasons.contains(.declined) { return .declined }
        if reasons.contains(.busy) { return .busy }
        return .unavailable
    }
}

extension RejectReason: CaseIterable, CustomStringConvertible {
    /// The wire string.
    public var description: String { rawValue }
}
