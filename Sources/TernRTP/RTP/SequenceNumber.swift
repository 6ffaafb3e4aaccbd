/// RFC 1982 serial-number arithmetic on 16-bit RTP sequence numbers.
public enum SequenceNumber {
    /// Whether `a` comes after `b` (modulo 2^16, within half the space).
    @inlinable public static func isNewer(_ a: UInt16, than b: UInt16) -> Bool {
        a != b && a &- b < 0x8000
    }

    /// The signed distance from `b` to `a` in -32768...32767.
    @inlinable public static func distance(from b: UInt16, to a: UInt16) -> Int {
        Int(Int16(bitPattern: a &- b))
    }
}
