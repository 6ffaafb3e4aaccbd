/// The Internet checksum (RFC 1071): ones' complement of the ones' complement sum
/// of 16-bit big-endian words, an odd trailing byte padded with zero.
enum InternetChecksum {
    /// Adds `bytes` into a running 32-bit sum (not yet folded).
    static func add(_ bytes: some Collection<UInt8>, to sum: UInt32 = 0) -> UInt32 {
        var total = UInt64(sum)
        var high = true
        for byte in bytes {
            total += high ? UInt64(byte) << 8 : UInt64(byte)
            high.toggle()
        }
        while total > 0xFFFF_FFFF { total = (total & 0xFFFF_FFFF) + (total >> 32) }
        return UInt32(total)
    }

    /// Folds a running sum to 16 bits and complements it.
    static func finish(_ sum: UInt32) -> UInt16 {
        var folded = sum
        while folded > 0xFFFF { folded = (folded & 0xFFFF) + (folded >> 16) }
        return ~UInt16(folded)
    }

    /// The checksum of `bytes` alone.
    static func checksum(_ bytes: some Collection<UInt8>) -> UInt16 {
        finish(add(bytes))
    }
}
