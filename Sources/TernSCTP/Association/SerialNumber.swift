/// Serial number arithmetic (RFC 1982) for 32-bit TSNs and 16-bit SSNs,
/// as RFC 9260 §1.6 requires.
extension UInt32 {
    /// `self < other` in serial arithmetic.
    @inlinable func tsnLess(_ other: UInt32) -> Bool { self != other && (other &- self) < 0x8000_0000 }
    /// `self <= other` in serial arithmetic.
    @inlinable func tsnLessOrEqual(_ other: UInt32) -> Bool { self == other || tsnLess(other) }
}

extension UInt16 {
    /// `self < other` in serial arithmetic.
    @inlinable func ssnLess(_ other: UInt16) -> Bool { self != other && (other &- self) < 0x8000 }
}
