public import TernCore

/// Why an RTCP packet could not be parsed. Each case names the packet type,
/// the field, and the byte offset from the start of the compound packet.
public enum RTCPParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The input ended inside `field` of `packet`.
    case truncated(packet: String, field: String, offset: Int, underlying: ByteReaderError)
    /// The version bits were not 2 (RFC 3550 §6.4.1).
    case unsupportedVersion(found: UInt8, offset: Int)
    /// The length field claims more bytes than the datagram holds (RFC 3550 §6.4.1).
    case lengthExceedsInput(packetType: UInt8, declared: Int, available: Int, offset: Int)
    /// The padding count is zero or larger than the packet body (RFC 3550 §6.4.1, P bit).
    case invalidPadding(count: Int, bodyLength: Int, offset: Int)
    /// A field holds a value the format forbids.
    case invalidField(packet: String, field: String, reason: String, offset: Int)
    /// A compound packet must start with SR or RR (RFC 3550 §6.1) unless reduced-size RTCP (RFC 5506) is allowed.
    case compoundMustStartWithReport(packetType: UInt8)
    /// The datagram held no bytes.
    case empty

    /// A human-readable description.
    public var description: String {
        switch self {
        case let .truncated(packet, field, offset, underlying):
            "RTCP \(packet) truncated in \(field) at offset \(offset): \(underlying)"
        case let .unsupportedVersion(found, offset):
            "RTCP version \(found) at offset \(offset), expected 2"
        case let .lengthExceedsInput(packetType, declared, available, offset):
            "RTCP packet type \(packetType) at offset \(offset) declares \(declared) bytes, only \(available) left"
        case let .invalidPadding(count, bodyLength, offset):
            "RTCP padding count \(count) at offset \(offset) is invalid for a body of \(bodyLength) bytes"
        case let .invalidField(packet, field, reason, offset):
            "RTCP \(packet) field \(field) at offset \(offset): \(reason)"
        case let .compoundMustStartWithReport(packetType):
            "compound RTCP starts with packet type \(packetType), not SR (200) or RR (201); reduced-size RTCP is not enabled"
        case .empty:
            "empty RTCP datagram"
        }
    }
}
