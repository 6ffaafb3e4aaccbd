public import TernCore

/// Why an SCTP packet, chunk or parameter could not be parsed (RFC 9260 §3).
public enum SCTPPacketError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The input ended inside `context` (e.g. "common header", "DATA chunk").
    case truncated(context: String, ByteReaderError)
    /// The CRC32c in the common header is not the one computed over the packet (RFC 9260 §6.8).
    case badChecksum(received: UInt32, computed: UInt32)
    /// A chunk's length field is below its minimum or past the end of the packet.
    case invalidChunkLength(type: UInt8, length: Int)
    /// A parameter or error cause length field is below 4 or past the end of its chunk.
    case invalidParameterLength(type: UInt16, length: Int)
    /// A field has a value the RFC forbids (e.g. a zero Initiate Tag, RFC 9260 §3.3.2).
    case invalidField(context: String, detail: String)

    public var description: String {
        switch self {
        case let .truncated(context, error): "SCTP \(context) truncated: \(error)"
        case let .badChecksum(received, computed):
            "SCTP checksum mismatch: packet says 0x\(String(received, radix: 16)), computed 0x\(String(computed, radix: 16))"
        case let .invalidChunkLength(type, length): "SCTP chunk type \(type) has invalid length \(length)"
        case let .invalidParameterLength(type, length): "SCTP parameter/cause type \(type) has invalid length \(length)"
        case let .invalidField(context, detail): "SCTP \(context): \(detail)"
        }
    }
}
