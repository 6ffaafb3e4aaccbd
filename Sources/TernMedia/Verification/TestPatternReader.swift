/// Reads the frame counter back from a decoded `TestPatternSource` picture.
///
/// Averages the inner half of each block of the counter grid (away from edges,
/// where coding artefacts ring), thresholds at mid-grey, and accepts the value
/// only if the 16 complement blocks agree — so a damaged or foreign picture reads
/// as nil rather than as a wrong number.
public enum TestPatternReader {
    /// The counter in `frame`, or nil when the check blocks disagree or the picture is too small.
    public static func counter(in frame: I420Frame) -> UInt16? {
        guard frame.width >= 16, frame.height >= 16, frame.strideY >= frame.width,
              frame.y.count >= frame.strideY * frame.height else { return nil }
        let layout = TestPatternLayout(width: frame.width, height: frame.height)
        let threshold = (Int(TestPatternLayout.black) + Int(TestPatternLayout.white)) / 2
        var value: UInt32 = 0
        for index in 0..<(TestPatternLayout.columns * TestPatternLayout.rows) {
            let block = layout.block(index)
            let x0 = block.x + block.width / 4, x1 = block.x + (3 * block.width) / 4
            let y0 = block.y + block.height / 4, y1 = block.y + (3 * block.height) / 4
            var sum = 0, count = 0
            for row in y0..<max(y1, y0 + 1) {
                for x in x0..<max(x1, x0 + 1) {
                    sum += Int(frame.y[row * frame.strideY + x])
                    count += 1
                }
            }
            value = (value << 1) | (sum / max(count, 1) > threshold ? 1 : 0)
        }
        let counter = UInt16(truncatingIfNeeded: value >> 16)
        let check = UInt16(truncatingIfNeeded: value)
        return check == ~counter ? counter : nil
    }
}
