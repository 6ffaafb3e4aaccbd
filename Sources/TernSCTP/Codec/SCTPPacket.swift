internal import TernCore

/// An SCTP packet: the common header and its chunks (RFC 9260 §3.1). Over DTLS
/// (RFC 8261/8841) each DTLS application-data record carries exactly one packet.
///
/// ```
///  0                   1                   2                   3
///  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |     Source Port Number        |     Destination Port Number   |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |                      Verification Tag                         |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |                           Checksum (CRC32c, little-endian)    |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// \                            Chunks                             \
/// ```
public struct SCTPPacket: Equatable, Sendable {
    /// Sender's SCTP port.
    public var sourcePort: UInt16
    /// Receiver's SCTP port.
    public var destinationPort: UInt16
    /// Verification Tag (RFC 9260 §8.5); 0 only on INIT.
    public var verificationTag: UInt32
    /// Chunks in packet order.
    public var chunks: [SCTPChunk]

    /// Size of the common header.
    public static let headerSize = 12

    /// Creates a value from its fields.
    public init(sourcePort: UInt16, destinationPort: UInt16, verificationTag: UInt32, chunks: [SCTPChunk]) {
        self.sourcePort = sourcePort
        self.destinationPort = destinationPort
        self.verificationTag = verificationTag
        self.chunks = chunks
    }

    /// Parses a packet. With `verifyChecksum`, a wrong CRC32c is an error (RFC 9260 §6.8:
    /// the packet is discarded). DATA payloads are slices of `bytes` (no copy).
    ///
    /// Chunk types are parsed per RFC 9260 §3.2; unknown types become `.unknown` and the
    /// association applies the rule of their upper two bits.
    public static func parse(_ bytes: [UInt8], verifyChecksum: Bool = true) throws(SCTPPacketError) -> SCTPPacket {
        var r = ByteReader(bytes)
        let (src, dst, tag, sum) = try r.sctp("common header") { r throws(ByteReaderError) in
            (try r.readUInt16(), try r.readUInt16(), try r.readUInt32(), try r.readUInt32())
        }
        if verifyChecksum {
            let received = sum.byteSwapped  // stored little-endian
            let computed = checksum(of: bytes[...])
            guard received == computed else { throw .badChecksum(received: received, computed: computed) }
        }
        var chunks: [SCTPChunk] = []
        while !r.isEmpty {
            let (type, flags, length) = try r.sctp("chunk header") { r throws(ByteReaderError) in
                (try r.readUInt8(), try r.readUInt8(), Int(try r.readUInt16()))
            }
            guard length >= 4, length - 4 <= r.count else { throw .invalidChunkLength(type: type, length: length) }
            let value = try r.sctp("chunk value") { r throws(ByteReaderError) in try r.readBytes(length - 4) }
            let pad = min((4 - length % 4) % 4, r.count)
            _ = try r.sctp("chunk padding") { r throws(ByteReaderError) in try r.skip(pad) }
            chunks.append(try SCTPChunk.parse(type: type, flags: flags, value: value))
        }
        return SCTPPacket(sourcePort: src, destinationPort: dst, verificationTag: tag, chunks: chunks)
    }

    /// Serializes the packet with its CRC32c.
    public func serialize() -> [UInt8] {
        var out = SCTPPacket.header(sourcePort: sourcePort, destinationPort: destinationPort, verificationTag: verificationTag)
        for chunk in chunks { chunk.write(into: &out) }
        SCTPPacket.finalize(&out)
        return out
    }

    static func header(sourcePort: UInt16, destinationPort: UInt16, verificationTag: UInt32, capacity: Int = 1232) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(capacity)
        out.appendBE(sourcePort)
        out.appendBE(destinationPort)
        out.appendBE(verificationTag)
        out.appendBE(UInt32(0))
        return out
    }

    /// Writes the CRC32c of a serialized packet (checksum field zero) into it.
    static func finalize(_ packet: inout [UInt8]) {
        let crc = CRC32c.checksum(packet)
        packet[8] = UInt8(truncatingIfNeeded: crc)
        packet[9] = UInt8(truncatingIfNeeded: crc >> 8)
        packet[10] = UInt8(truncatingIfNeeded: crc >> 16)
        packet[11] = UInt8(truncatingIfNeeded: crc >> 24)
    }

    /// The CRC32c of a packet computed as if its checksum field were zero.
    public static func checksum(of bytes: ArraySlice<UInt8>) -> UInt32 {
        guard bytes.count >= headerSize else { return CRC32c.checksum(bytes) }
        let s = bytes.startIndex
        var state: UInt32 = 0xFFFF_FFFF
        CRC32c.update(&state, bytes[s..<(s + 8)])
        CRC32c.update(&state, [0, 0, 0, 0] as [UInt8])
        CRC32c.update(&state, bytes[(s + 12)...])
        return ~state
    }
}
