/// A classic pcap file read back into memory: its header fields and records.
///
/// Accepts both byte orders and both the microsecond (0xa1b2c3d4) and nanosecond
/// (0xa1b23c4d) magics. Used to check what `PcapWriter` wrote; never crashes on
/// malformed bytes (throws `PcapError.malformed`).
public struct PcapFile: Sendable {
    /// One captured packet.
    public struct Record: Sendable, Equatable {
        /// Seconds since the Unix epoch.
        public var seconds: UInt32
        /// Sub-second part, in microseconds (or nanoseconds for a nanosecond file).
        public var subseconds: UInt32
        /// The bytes stored (`incl_len` of them).
        public var data: [UInt8]
        /// The packet's length on the wire (`orig_len`).
        public var originalLength: UInt32
    }

    /// Format major version.
    public var versionMajor: UInt16
    /// Format minor version.
    public var versionMinor: UInt16
    /// Snapshot length.
    public var snapshotLength: UInt32
    /// Link-layer header type.
    public var linkType: UInt32
    /// True when timestamps carry nanoseconds rather than microseconds.
    public var nanosecondTimestamps: Bool
    /// The records in file order.
    public var records: [Record]

    /// Parses a whole file.
    /// - Throws: `PcapError.malformed` for a bad magic or a record cut short.
    public init(bytes: [UInt8]) throws(PcapError) {
        var reader = LittleOrBigReader(bytes: bytes)
        guard let rawMagic = reader.uint32() else { throw .malformed("shorter than the 24-byte file header") }
        switch rawMagic {
        case 0xa1b2_c3d4: nanosecondTimestamps = false
        case 0xa1b2_3c4d: nanosecondTimestamps = true
        case 0xd4c3_b2a1: nanosecondTimestamps = false; reader.swapped = true
        case 0x4d3c_b2a1: nanosecondTimestamps = true; reader.swapped = true
        default: throw .malformed("unknown magic 0x\(String(rawMagic, radix: 16))")
        }
        guard let major = reader.uint16(), let minor = reader.uint16(), reader.uint32() != nil,
              reader.uint32() != nil, let snaplen = reader.uint32(), let link = reader.uint32() else {
            throw .malformed("shorter than the 24-byte file header")
        }
        (versionMajor, versionMinor, snapshotLength, linkType) = (major, minor, snaplen, link)
        records = []
        while !reader.isAtEnd {
            guard let seconds = reader.uint32(), let sub = reader.uint32(),
                  let included = reader.uint32(), let original = reader.uint32() else {
                throw .malformed("record \(records.count) header cut short")
            }
            guard let data = reader.bytes(Int(included)) else {
                throw .malformed("record \(records.count) claims \(included) bytes, fewer remain")
            }
            records.append(Record(seconds: seconds, subseconds: sub, data: data, originalLength: original))
        }
    }
}

/// Reads the file's native-order integers (little-endian unless `swapped`).
private struct LittleOrBigReader {
    let bytes: [UInt8]
    var offset = 0
    var swapped = false

    var isAtEnd: Bool { offset >= bytes.count }

    mutating func bytes(_ count: Int) -> [UInt8]? {
        guard count >= 0, count <= bytes.count - offset else { return nil }
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }

    mutating func uint32() -> UInt32? {
        guard let raw = bytes(4) else { return nil }
        let little = raw.reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return swapped ? little.byteSwapped : little
    }

    mutating func uint16() -> UInt16? {
        guard let raw = bytes(2) else { return nil }
        let little = UInt16(raw[1]) << 8 | UInt16(raw[0])
        return swapped ? little.byteSwapped : little
    }
}
