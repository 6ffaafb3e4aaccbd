internal import TernCore

/// Small internal helpers for reading and writing SCTP wire formats.
extension ByteReader {
    /// Runs a read, turning `ByteReaderError` into `SCTPPacketError.truncated` with context.
    @inline(__always)
    mutating func sctp<T>(_ context: String, _ body: (inout ByteReader) throws(ByteReaderError) -> T) throws(SCTPPacketError) -> T {
        do { return try body(&self) } catch { throw .truncated(context: context, error) }
    }
}

extension Array where Element == UInt8 {
    @inline(__always) mutating func appendBE(_ v: UInt16) {
        append(UInt8(truncatingIfNeeded: v >> 8)); append(UInt8(truncatingIfNeeded: v))
    }
    @inline(__always) mutating func appendBE(_ v: UInt32) {
        append(UInt8(truncatingIfNeeded: v >> 24)); append(UInt8(truncatingIfNeeded: v >> 16))
        append(UInt8(truncatingIfNeeded: v >> 8)); append(UInt8(truncatingIfNeeded: v))
    }
    @inline(__always) mutating func patchBE(_ v: UInt16, at i: Int) {
        self[i] = UInt8(truncatingIfNeeded: v >> 8); self[i + 1] = UInt8(truncatingIfNeeded: v)
    }
    @inline(__always) mutating func padTo4() {
        while count % 4 != 0 { append(0) }
    }
}
