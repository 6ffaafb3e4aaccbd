public import TernCore

/// What a sender put on the wire over the last second, from packet sizes and send times: twenty
/// slots of 50 ms, each remembering which 50 ms it holds, so reading needs no mutation and a
/// slot from an older round counts nothing.
public struct RateMeter: Sendable {
    private static let slotCount = 20
    private static let slotNanoseconds: Int64 = 50_000_000
    /// The window the rate is taken over.
    public static let window: Duration = .milliseconds(1_000)

    private var slots = [(index: Int64, bytes: Int)](repeating: (.min, 0), count: slotCount)

    public init() {}

    /// Counts `bytes` sent at `now`.
    public mutating func add(_ bytes: Int, at now: Instant) {
        let index = now.nanoseconds / Self.slotNanoseconds
        let count = Int64(Self.slotCount)
        let slot = Int((index % count + count) % count)
        if slots[slot].index != index { slots[slot] = (index, 0) }
        let added = max(0, bytes)
        slots[slot].bytes = slots[slot].bytes > Int.max - added ? Int.max : slots[slot].bytes + added
    }

    /// Bits per second over the window ending at `now`.
    public func bitsPerSecond(at now: Instant) -> Double {
        let newest = now.nanoseconds / Self.slotNanoseconds
        let oldest = newest - Int64(Self.slotCount) + 1
        let bytes = slots.reduce(0.0) { sum, slot in
            slot.index >= oldest && slot.index <= newest ? sum + Double(slot.bytes) : sum
        }
        return bytes * 8 / Self.window.seconds
    }
}
