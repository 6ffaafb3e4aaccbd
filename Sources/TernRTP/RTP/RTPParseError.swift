public import TernCore

/// Why an RTP packet or one of its header extensions could not be parsed.
/// Every case names the field that was wrong and the byte offset (from the start
/// of the packet) where parsing stopped.
public enum RTPParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The input ended inside `field`.
    case truncated(field: String, offset: Int, underlying: ByteReaderError)
    /// The version bits were not 2 (RFC 3550 §5.1).
    case unsupportedVersion(found: UInt8, offset: Int)
    /// The padding count is zero or larger than what follows the header (RFC 3550 §5.1, P bit).
    case invalidPadding(count: Int, available: Int, offset: Int)
    /// A header-extension element is malformed (RFC 8285 §4.2/§4.3).
    case invalidExtensionElement(reason: String, offset: Int)
    /// The payload is too short for what the payload format requires (e.g. RTX's OSN, RFC 4588 §4).
    case payloadTooShort(needed: Int, available: Int)

    /// A human-readable description.
    public var description: String {
        switch self {
        case let .truncated(field, offset, underlying):
            "RTP packet truncated in \(field) at offset \(offset): \(underlying)"
        case let .unsupportedVersion(found, offset):
            "RTP version \(found) at offset \(offset), expected 2"
        case let .invalidPadding(count, available, offset):
            "RTP padding count \(count) at offset \(offset) is invalid (\(available) byte(s) after the header)"
        case let .invalidExtensionElement(reason, offset):
            "RTP header extension element at offset \(offset): \(reason)"
        case let .payloadTooShort(needed, available):
            "RTP payload has \(available) byte(s), need at least \(needed)"
        }
    }
}
