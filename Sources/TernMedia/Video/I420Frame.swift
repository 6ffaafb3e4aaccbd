/// An uncompressed picture in I420 (YUV 4:2:0, 8-bit, three planes): full-size
/// luma and two chroma planes of ⌈width/2⌉ × ⌈height/2⌉.
///
/// Each plane is stored row by row; row `r` of a plane starts at `r * stride`.
public struct I420Frame: Sendable, Hashable {
    /// Picture width in pixels.
    public var width: Int
    /// Picture height in pixels.
    public var height: Int
    /// Luma (Y) samples, `strideY * height` bytes.
    public var y: [UInt8]
    /// Blue-difference chroma (U / Cb) samples, `strideU * chromaHeight` bytes.
    public var u: [UInt8]
    /// Red-difference chroma (V / Cr) samples, `strideV * chromaHeight` bytes.
    public var v: [UInt8]
    /// Bytes per luma row (≥ width).
    public var strideY: Int
    /// Bytes per U row (≥ chromaWidth).
    public var strideU: Int
    /// Bytes per V row (≥ chromaWidth).
    public var strideV: Int

    /// Width of the chroma planes.
    public var chromaWidth: Int { (width + 1) / 2 }
    /// Height of the chroma planes.
    public var chromaHeight: Int { (height + 1) / 2 }

    /// A frame from planes and strides. Returns nil if a plane is too small for
    /// its stride and height or a stride is narrower than its plane.
    public init?(width: Int, height: Int, y: [UInt8], u: [UInt8], v: [UInt8],
                 strideY: Int, strideU: Int, strideV: Int) {
        let cw = (width + 1) / 2, ch = (height + 1) / 2
        guard width > 0, height > 0, strideY >= width, strideU >= cw, strideV >= cw,
              y.count >= strideY * height, u.count >= strideU * ch, v.count >= strideV * ch
        else { return nil }
        self.width = width
        self.height = height
        self.y = y
        self.u = u
        self.v = v
        self.strideY = strideY
        self.strideU = strideU
        self.strideV = strideV
    }

    /// A compact frame (strides equal to plane widths) filled with one colour.
    /// `width` and `height` must be positive.
    public init(width: Int, height: Int, luma: UInt8 = 16, cb: UInt8 = 128, cr: UInt8 = 128) {
        precondition(width > 0 && height > 0, "I420Frame needs a positive size")
        let cw = (width + 1) / 2, ch = (height + 1) / 2
        self.width = width
        self.height = height
        self.y = [UInt8](repeating: luma, count: width * height)
        self.u = [UInt8](repeating: cb, count: cw * ch)
        self.v = [UInt8](repeating: cr, count: cw * ch)
        self.strideY = width
        self.strideU = cw
        self.strideV = cw
    }

    /// The luma sample at column `x`, row `row`.
    public func luma(x: Int, y row: Int) -> UInt8 { y[row * strideY + x] }
}

extension I420Frame {
    /// The picture shrunk by `divisor` in each direction (each output sample the average of a
    /// `divisor` × `divisor` block), to an even size of at least 2 × 2; itself for divisor 1.
    /// For sending a smaller picture when the link cannot carry this one.
    public func downscaled(by divisor: Int) -> I420Frame {
        guard divisor > 1 else { return self }
        let width = max(2, (width / divisor) & ~1), height = max(2, (height / divisor) & ~1)
        var out = I420Frame(width: width, height: height)
        Self.shrink(y, stride: strideY, into: &out.y, stride: out.strideY, width: width, height: height, divisor: divisor)
        Self.shrink(u, stride: strideU, into: &out.u, stride: out.strideU, width: out.chromaWidth, height: out.chromaHeight,
                    divisor: divisor)
        Self.shrink(v, stride: strideV, into: &out.v, stride: out.strideV, width: out.chromaWidth, height: out.chromaHeight,
                    divisor: divisor)
        return out
    }

    private static func shrink(_ source: [UInt8], stride: Int, into target: inout [UInt8], stride targetStride: Int,
                               width: Int, height: Int, divisor: Int) {
        let area = divisor * divisor
        for row in 0..<height {
            for column in 0..<width {
                var sum = 0
                for dy in 0..<divisor {
                    let base = (row * divisor + dy) * stride + column * divisor
                    guard base + divisor <= source.count else { continue }
                    for dx in 0..<divisor { sum += Int(source[base + dx]) }
                }
                target[row * targetStride + column] = UInt8(truncatingIfNeeded: sum / area)
            }
        }
    }
}
