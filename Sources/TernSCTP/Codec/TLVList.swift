internal import TernCore

/// Reading and writing lists of TLVs (parameters and error causes).
enum TLVList {
    /// Parses TLVs until `reader` is empty. The last TLV's padding may be absent.
    static func parse(_ reader: inout ByteReader) throws(SCTPPacketError) -> [(type: UInt16, value: ArraySlice<UInt8>)] {
        var out: [(UInt16, ArraySlice<UInt8>)] = []
        while !reader.isEmpty {
            let (type, length) = try reader.sctp("parameter header") { r throws(ByteReaderError) in
                (try r.readUInt16(), Int(try r.readUInt16()))
            }
            guard length >= 4, length - 4 <= reader.count else { throw .invalidParameterLength(type: type, length: length) }
            let value = try reader.sctp("parameter value") { r throws(ByteReaderError) in try r.readBytes(length - 4) }
            let pad = min((4 - length % 4) % 4, reader.count)
            _ = try reader.sctp("parameter padding") { r throws(ByteReaderError) in try r.skip(pad) }
            out.append((type, value))
        }
        return out
    }

    /// Appends TLVs, each padded to 4 bytes. Returns the unpadded length of the last one's padding
    /// so callers can exclude it from a chunk length (RFC 9260 §3.2: the chunk length does not
    /// count the padding of the last parameter).
    @discardableResult
    static func write(_ items: [(type: UInt16, value: [UInt8])], into out: inout [UInt8]) -> Int {
        var lastPad = 0
        for item in items {
            out.appendBE(item.type)
            out.appendBE(UInt16(truncatingIfNeeded: item.value.count + 4))
            out.append(contentsOf: item.value)
            lastPad = (4 - item.value.count % 4) % 4
            out.append(contentsOf: repeatElement(0, count: lastPad))
        }
        return lastPad
    }
}
