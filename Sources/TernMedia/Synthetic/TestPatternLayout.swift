/// Where the test pattern puts its frame counter, shared by `TestPatternSource`
/// (writer) and `TestPatternReader` (reader).
///
/// The top half of the luma plane is an 8 × 4 grid of blocks. Blocks 0–15 hold
/// the 16-bit counter (bit 15 first), blocks 16–31 its bitwise complement, as a
/// check. A block is black (luma 16) for 0 and white (235) for 1: large enough,
/// with enough contrast, to survive lossy VP8 coding at modest bitrates.
struct TestPatternLayout {
    static let columns = 8
    static let rows = 4
    static let bits = 16
    static let black: UInt8 = 16
    static let white: UInt8 = 235

    let width: Int
    let height: Int

    var blockWidth: Int { width / Self.columns }
    var blockHeight: Int { (height / 2) / Self.rows }

    /// The pixel rectangle of block `index` (0…31): x, y, width, height.
    func block(_ index: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        (x: (index % Self.columns) * blockWidth, y: (index / Self.columns) * blockHeight,
         width: blockWidth, height: blockHeight)
    }

    /// The 32 block values (true = white) for `counter`.
    static func bitPattern(for counter: UInt16) -> [Bool] {
        let value = (UInt32(counter) << 16) | UInt32(~counter)
        return (0..<32).map { value & (1 << (31 - UInt32($0))) != 0 }
    }
}
