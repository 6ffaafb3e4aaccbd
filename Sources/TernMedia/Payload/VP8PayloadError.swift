public import TernCore

/// Why a VP8 RTP payload (RFC 7741) could not be used.
public enum VP8PayloadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The payload descriptor (§4.2) ended before the fields its flags announce.
    case truncatedDescriptor(ByteReaderError)
    /// The descriptor is complete but no VP8 data follows it (§4.2: a payload carries at least one byte of frame data).
    case emptyPayload(descriptorLength: Int)
    /// The first payload of a frame is too short for the 3-byte VP8 payload header (§4.3).
    case truncatedPayloadHeader(available: Int)

    public var description: String {
        switch self {
        case let .truncatedDescriptor(inner):
            "VP8 payload descriptor truncated (RFC 7741 §4.2): \(inner)"
        case let .emptyPayload(length):
            "VP8 payload has a \(length)-byte descriptor and no frame data (RFC 7741 §4.2)"
        case let .truncatedPayloadHeader(available):
            "VP8 payload header needs 3 bytes at the start of a frame (RFC 7741 §4.3), \(available) present"
        }
    }
}
