/// A synthetic video source: a moving I420 test pattern that carries its frame
/// number, so a receiver can check which frames arrive, in what order, after a
/// lossy VP8 round trip (see `TestPatternReader`).
///
/// Top half: 32 black/white blocks holding a 16-bit counter and its complement
/// (`TestPatternLayout`). Bottom half: a horizontal luma gradient with a white
/// vertical bar moving 6 pixels per frame, and chroma shifting with the counter,
/// so the encoder has real motion to code.
public struct TestPatternSource: Sendable {
    /// Picture width in pixels.
    public let width: Int
    /// Picture height in pixels.
    public let height: Int
    /// The counter the next frame will carry (wraps at 65 536).
    public private(set) var nextCounter: UInt16

    /// A source of `width` × `height` frames; both must be even and at least 16 × 16
    /// (a programming error otherwise).
    public init(width: Int = 320, height: Int = 240, firstCounter: UInt16 = 0) {
        precondition(width >= 16 && height >= 16 && width % 2 == 0 && height % 2 == 0,
                     "test pattern needs an even size of at least 16x16")
        self.width = width
        self.height = height
        self.nextCounter = firstCounter
    }

    /// The next frame; the counter increases by one.
    public mutating func nextFrame() -> I420Frame {
        let frame = Self.frame(counter: nextCounter, width: width, height: height)
        nextCounter &+= 1
        return frame
    }

    /// The pattern for a given counter value.
    public static func frame(counter: UInt16, width: Int, height: Int) -> I420Frame {
        var frame = I420Frame(width: width, height: height, luma: TestPatternLayout.black)
        let layout = TestPatternLayout(width: width, height: height)
        for (index, isWhite) in TestPatternLayout.bitPattern(for: counter).enumerated() where isWhite {
            let block = layout.block(index)
            for row in block.y..<(block.y + block.height) {
                let base = row * frame.strideY
                for x in block.x..<(block.x + block.width) { frame.y[base + x] = TestPatternLayout.white }
            }
        }
        let top = layout.blockHeight * TestPatternLayout.rows
        let barX = (Int(counter) * 6) % width
        for row in top..<height {
            let base = row * frame.strideY
            for x in 0..<width {
                let onBar = x >= barX && x < barX + 16
                frame.y[base + x] = onBar ? 235 : UInt8(40 + (x * 150) / width)
            }
        }
        for row in (top / 2)..<frame.chromaHeight {
            for x in 0..<frame.chromaWidth {
                frame.u[row * frame.strideU + x] = UInt8(truncatingIfNeeded: 64 + (x + Int(counter)) % 128)
                frame.v[row * frame.strideV + x] = UInt8(truncatingIfNeeded: 64 + (row * 2 + Int(counter)) % 128)
            }
        }
        return frame
    }
}
