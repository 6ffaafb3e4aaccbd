/// Extends 16-bit sequence numbers to a monotonic 64-bit count across wraps,
/// tolerating reordering within half the sequence space.
public struct SequenceUnwrapper: Sendable {
    private var last: Int64?

    /// An unwrapper that has seen nothing yet.
    public init() {}

    /// The extended value of `seq`, relative to the last one seen.
    public mutating func unwrap(_ seq: UInt16) -> Int64 {
        guard let last else {
            let value = Int64(seq)
            self.last = value
            return value
        }
        let delta = Int64(Int16(bitPattern: seq &- UInt16(truncatingIfNeeded: last)))
        let value = last + delta
        if value > last { self.last = value }
        return value
    }

    /// The extended value of `seq` without recording it.
    public func peek(_ seq: UInt16) -> Int64 {
        guard let last else { return Int64(seq) }
        return last + Int64(Int16(bitPattern: seq &- UInt16(truncatingIfNeeded: last)))
    }
}
