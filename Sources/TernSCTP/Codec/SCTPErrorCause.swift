/// An error cause of ERROR and ABORT chunks (RFC 9260 §3.3.10).
public struct SCTPErrorCause: Equatable, Sendable, CustomStringConvertible {
    /// Cause code.
    public var code: UInt16
    /// Cause-specific information.
    public var value: [UInt8]
    /// Creates a value from its fields.
    public init(code: UInt16, value: [UInt8]) { self.code = code; self.value = value }

    /// Cause code 1, Invalid Stream Identifier.
    public static let invalidStreamIdentifier: UInt16 = 1
    /// Cause code 3, Stale Cookie Error: the Measure of Staleness in microseconds (32 bits).
    public static let staleCookie: UInt16 = 3
    /// Cause code 6, Unrecognized Chunk Type: carries the offending chunk.
    public static let unrecognizedChunkType: UInt16 = 6
    /// Cause code 8, Unrecognized Parameters.
    public static let unrecognizedParameters: UInt16 = 8
    /// Cause code 12, User-Initiated Abort: UTF-8 reason.
    public static let userInitiatedAbort: UInt16 = 12
    /// Cause code 13, Protocol Violation: UTF-8 detail.
    public static let protocolViolation: UInt16 = 13

    /// A user-initiated abort with a human-readable reason.
    public static func userAbort(_ reason: String) -> SCTPErrorCause {
        SCTPErrorCause(code: userInitiatedAbort, value: Array(reason.utf8))
    }

    public var description: String {
        switch code {
        case Self.userInitiatedAbort: "user-initiated abort: \(String(decoding: value, as: UTF8.self))"
        case Self.protocolViolation: "protocol violation: \(String(decoding: value, as: UTF8.self))"
        case Self.unrecognizedChunkType: "unrecognized chunk type"
        case Self.staleCookie: "stale cookie"
        default: "cause \(code) (\(value.count) bytes)"
        }
    }
}
