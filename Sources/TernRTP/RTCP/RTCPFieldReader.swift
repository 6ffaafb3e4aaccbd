import TernCore

/// A bounds-checked reader over one RTCP packet body that turns `ByteReaderError`
/// into `RTCPParseError` with the packet name, field and absolute offset.
struct RTCPFieldReader {
    var reader: ByteReader
    let base: Int
    let packet: String

    init(_ body: ArraySlice<UInt8>, base: Int, packet: String) {
        reader = ByteReader(body)
        self.base = base
        self.packet = packet
    }

    var offset: Int { base + reader.offset }
    var count: Int { reader.count }
    var isEmpty: Bool { reader.isEmpty }

    private func wrap(_ field: String, _ error: ByteReaderError) -> RTCPParseError {
        .truncated(packet: packet, field: field, offset: offset, underlying: error)
    }

    mutating func u8(_ field: String) throws(RTCPParseError) -> UInt8 {
        do { return try reader.readUInt8() } catch { throw wrap(field, error) }
    }

    mutating func u16(_ field: String) throws(RTCPParseError) -> UInt16 {
        do { return try reader.readUInt16() } catch { throw wrap(field, error) }
    }

    mutating func u24(_ field: String) throws(RTCPParseError) -> UInt32 {
        do { return try reader.readUInt24() } catch { throw wrap(field, error) }
    }

    mutating func u32(_ field: String) throws(RTCPParseError) -> UInt32 {
        do { return try reader.readUInt32() } catch { throw wrap(field, error) }
    }

    mutating func u64(_ field: String) throws(RTCPParseError) -> UInt64 {
        do { return try reader.readUInt64() } catch { throw wrap(field, error) }
    }

    mutating func bytes(_ n: Int, _ field: String) throws(RTCPParseError) -> ArraySlice<UInt8> {
        do { return try reader.readBytes(n) } catch { throw wrap(field, error) }
    }

    mutating func rest() -> ArraySlice<UInt8> { reader.readRemaining() }

    /// The rest of the body, which RFC 3550 counts in 32-bit words (SR/RR profile-specific
    /// extensions §6.4, APP data §6.7). Padding whose count is not a multiple of four (libwebrtc
    /// pads transport-wide feedback that way) can leave such a body unaligned: that is refused,
    /// not kept as words the packet does not have.
    mutating func restInWords(_ field: String) throws(RTCPParseError) -> ArraySlice<UInt8> {
        guard reader.count % 4 == 0 else { throw invalid(field, "\(reader.count) bytes, not a whole number of 32-bit words") }
        return reader.readRemaining()
    }

    func invalid(_ field: String, _ reason: String) -> RTCPParseError {
        .invalidField(packet: packet, field: field, reason: reason, offset: offset)
    }
}
