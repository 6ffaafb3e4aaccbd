import Testing
import TernMedia

/// Shrinking a picture for a slower link, and libvpx holding a low bitrate by skipping pictures.
@Suite struct VP8DownscaleTests {
    @Test("a picture halved: size halved (even), each sample the average of its 2x2 block, chroma too")
    func halvedPicture() {
        var frame = I420Frame(width: 8, height: 4)
        for row in 0..<4 { for column in 0..<8 { frame.y[row * frame.strideY + column] = UInt8(row * 8 + column) } }
        for index in frame.u.indices { frame.u[index] = 100 }
        let half = frame.downscaled(by: 2)
        #expect(half.width == 4 && half.height == 2)
        // Block (0,0): 0, 1, 8, 9 → 4; block (1,3): 22, 23, 30, 31 → 26.
        #expect(half.y[0] == 4 && half.y[1 * half.strideY + 3] == 26)
        #expect(half.u.prefix(half.chromaWidth).allSatisfy { $0 == 100 })
        #expect(frame.downscaled(by: 1).y == frame.y)
    }

    @Test("at 30 kbit/s a 640x480 pattern with frame dropping sends fewer frames and fewer bytes than without")
    func frameDroppingHoldsTheBitrate() throws {
        func run(dropping: Bool) throws -> (frames: Int, bytes: Int) {
            var configuration = VP8EncoderConfiguration(width: 640, height: 480, bitrateKbps: 30)
            configuration.dropsFramesToHoldBitrate = dropping
            configuration.maximumKeyframeBitratePercent = dropping ? 900 : nil
            let encoder = try VP8Encoder(configuration: configuration)
            var source = TestPatternSource(width: 640, height: 480)
            var frames = 0, bytes = 0
            for _ in 0..<90 {
                if let encoded = try encoder.encode(source.nextFrame()) {
                    frames += 1
                    bytes += encoded.data.count
                }
            }
            return (frames, bytes)
        }
        let dropping = try run(dropping: true), every = try run(dropping: false)
        #expect(every.frames == 90)
        #expect(dropping.frames < 90)
        #expect(dropping.bytes < every.bytes)
    }
}
