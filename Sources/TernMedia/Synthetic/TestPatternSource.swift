#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// A synthetic video source: a moving I420 test pattern that carries its frame
/// number, so a receiver can check which frames arrive, in what order, after a
/// lossy VP8 round trip (see `TestPatternReader`).
///
/// Top half: 32 black/white blocks holding a 16-bit counter and its complement
/// (`TestPatternLayout`). Bottom half: a horizontal luma gradient with a white
/// vertical bar moving 6 pixels per frame, and chroma shifting with the counter,
/// so the encoder has real motion to code.
///
/// With `grain` above 0, the bottom half's luma also carries noise that changes every frame
/// (±`grain` levels, a hash of the counter and the pixel, so the same counter gives the same
/// picture): what a camera's sensor adds. Without it VP8 reaches its finest quantizer at
/// ~800 kbit/s on a 640×480 pattern and sends no more whatever it is allowed, so a congestion
/// controller is never tested above that; with grain 4 it can use several Mbit/s, as a camera
/// picture does.
public struct TestPatternSource: Sendable {
    /// Picture width in pixels.
    public let width: Int
    /// Picture height in pixels.
    public let height: Int
    /// The counter the next frame will carry (wraps at 65 536).
    public private(set) var nextCounter: UInt16
    /// Amplitude of the bottom half's per-frame luma noise, in levels (0: none).
    public let grain: Int
    /// The grains a source takes (others are clamped to it); levels pushed past 0…255 saturate.
    public static let grainRange = 0...64

    /// A source of `width` × `height` frames; both must be even and at least 16 × 16
    /// (a programming error otherwise).
    public init(width: Int = 320, height: Int = 240, firstCounter: UInt16 = 0, grain: Int = 0) {
        precondition(width >= 16 && height >= 16 && width % 2 == 0 && height % 2 == 0,
                     "test pattern needs an even size of at least 16x16")
        self.width = width
        self.height = height
        self.nextCounter = firstCounter
        self.grain = min(max(grain, Self.grainRange.lowerBound), Self.grainRange.upperBound)
    }

    /// The next frame; the counter increases by one.
    public mutating func nextFrame() -> I420Frame {
        let frame = Self.frame(counter: nextCounter, width: width, height: height, grain: grain)
        nextCounter &+= 1
        return frame
    }

    /// The pattern for a given counter value.
    /// `grain` outside `grainRange` is clamped to it.
    ///
    /// Rows are built once and copied with `memset`/`memcpy`: the pattern is drawn for every
    /// frame of every call `tern` makes, and per-pixel Swift loops (or the generic collection
    /// calls that replace them) in the debug build `make test` runs took 40 % of a four-member
    /// group call's CPU, so its members fell behind and sent a fraction of their frames.
    public static func frame(counter: UInt16, width: Int, height: Int, grain: Int = 0) -> I420Frame {
        let grain = min(max(grain, grainRange.lowerBound), grainRange.upperBound)
        var frame = I420Frame(width: width, height: height, luma: TestPatternLayout.black)
        let layout = TestPatternLayout(width: width, height: height)
        let strideY = frame.strideY, chromaWidth = frame.chromaWidth, chromaHeight = frame.chromaHeight
        let top = layout.blockHeight * TestPatternLayout.rows
        let barX = (Int(counter) * 6) % width
        var levels = [Int](repeating: 0, count: width)
        var row = [UInt8](repeating: 0, count: width)
        for x in 0..<width {
            levels[x] = x >= barX && x < barX + 16 ? 235 : 40 + (x * 150) / width
            row[x] = UInt8(truncatingIfNeeded: levels[x])
        }
        frame.y.withUnsafeMutableBytes { y in
            guard let luma = y.baseAddress else { return }
            for (index, isWhite) in TestPatternLayout.bitPattern(for: counter).enumerated() where isWhite {
                let block = layout.block(index)
                for line in block.y..<(block.y + block.height) {
                    memset(luma + line * strideY + block.x, Int32(TestPatternLayout.white), block.width)
                }
            }
            for line in top..<height {
                if grain > 0 {
                    for x in 0..<width {
                        row[x] = UInt8(clamping: levels[x] + Self.noise(counter: counter, x: x, y: line, amplitude: grain))
                    }
                }
                row.withUnsafeBytes { source in
                    if let pixels = source.baseAddress { memcpy(luma + line * strideY, pixels, width) }
                }
            }
        }
        var uRow = [UInt8](repeating: 0, count: chromaWidth)
        for x in 0..<chromaWidth { uRow[x] = UInt8(truncatingIfNeeded: 64 + (x + Int(counter)) % 128) }
        let strideU = frame.strideU, strideV = frame.strideV
        frame.u.withUnsafeMutableBytes { u in
            guard let chroma = u.baseAddress else { return }
            uRow.withUnsafeBytes { source in
                guard let samples = source.baseAddress else { return }
                for line in (top / 2)..<chromaHeight { memcpy(chroma + line * strideU, samples, chromaWidth) }
            }
        }
        frame.v.withUnsafeMutableBytes { v in
            guard let chroma = v.baseAddress else { return }
            for line in (top / 2)..<chromaHeight {
                memset(chroma + line * strideV, Int32(64 + (line * 2 + Int(counter)) % 128), chromaWidth)
            }
        }
        return frame
    }

    /// A value in -amplitude...amplitude from the counter and the pixel (a 32-bit integer hash,
    /// the finalizer of MurmurHash3): uniform enough to look like sensor noise to an encoder,
    /// cheap enough for 30 pictures a second.
    private static func noise(counter: UInt16, x: Int, y: Int, amplitude: Int) -> Int {
        var h = UInt32(truncatingIfNeeded: x) &* 0x9E37_79B1 ^ UInt32(truncatingIfNeeded: y) &* 0x85EB_CA77
            ^ UInt32(counter) &* 0xC2B2_AE3D
        h ^= h >> 16
        h &*= 0x85EB_CA6B
        h ^= h >> 13
        h &*= 0xC2B2_AE35
        h ^= h >> 16
        return Int(h % UInt32(2 * amplitude + 1)) - amplitude
    }
}
