import Testing
import TernMedia

@Suite("VP8 codec (libvpx)")
struct VP8CodecTests {
    @Test("one 320x240 frame encodes to a keyframe and decodes to a 320x240 I420 picture")
    func smokeOneFrame() throws {
        let encoder = try VP8Encoder(configuration: VP8EncoderConfiguration(width: 320, height: 240))
        let decoder = try VP8Decoder()
        let encoded = try #require(try encoder.encode(TestPatternSource.frame(counter: 5, width: 320, height: 240)))
        #expect(encoded.isKeyframe)
        #expect(encoded.timestamp == 0)
        let header = try #require(VP8PayloadHeader(encoded.data))   // RFC 7741 §4.3 / RFC 6386 §9.1
        #expect(header.isKeyframe && header.showFrame)
        #expect(header.keyframeWidth == 320 && header.keyframeHeight == 240)
        #expect(header.firstPartitionSize > 0 && header.firstPartitionSize < encoded.data.count)
        let picture = try #require(try decoder.decode(encoded))
        #expect(picture.width == 320 && picture.height == 240)
        #expect(picture.y.count == 320 * 240 && picture.u.count == 160 * 120 && picture.v.count == 160 * 120)
        #expect(TestPatternReader.counter(in: picture) == 5)
        #expect(encoder.nextTimestamp == 3000)
    }

    @Test("a frame of the wrong size is a typed error")
    func wrongSize() throws {
        let encoder = try VP8Encoder(configuration: VP8EncoderConfiguration(width: 320, height: 240))
        #expect(throws: VP8Error.frameSizeMismatch(expectedWidth: 320, expectedHeight: 240, width: 160, height: 120)) {
            try encoder.encode(I420Frame(width: 160, height: 120))
        }
    }

    @Test("an odd size is rejected at configuration")
    func oddSize() {
        #expect(throws: VP8Error.self) { try VP8Encoder(configuration: VP8EncoderConfiguration(width: 321, height: 240)) }
    }

    @Test("only the first frame is a keyframe until one is forced or requested")
    func forcedKeyframes() throws {
        let encoder = try VP8Encoder(configuration: VP8EncoderConfiguration(width: 320, height: 240))
        var source = TestPatternSource()
        var keyframes: [Bool] = []
        for index in 0..<10 {
            if index == 6 { encoder.requestKeyframe() }
            let frame = try #require(try encoder.encode(source.nextFrame(), forceKeyframe: index == 3))
            keyframes.append(frame.isKeyframe)
        }
        #expect(keyframes == [true, false, false, true, false, false, true, false, false, false])
    }

    @Test("the keyframe interval bounds the distance between keyframes")
    func keyframeInterval() throws {
        let encoder = try VP8Encoder(configuration: VP8EncoderConfiguration(width: 160, height: 120, keyframeInterval: 5))
        var source = TestPatternSource(width: 160, height: 120)
        var keyIndices: [Int] = []
        for index in 0..<16 where try #require(try encoder.encode(source.nextFrame())).isKeyframe {
            keyIndices.append(index)
        }
        #expect(keyIndices.first == 0)
        #expect(zip(keyIndices, keyIndices.dropFirst()).allSatisfy { $1 - $0 <= 5 })
        #expect(keyIndices.count >= 3)
    }

    @Test("hostile: a keyframe declaring 16383x16383 is refused before libvpx allocates for it, and decoding goes on")
    func giantKeyframeHeaderIsRefused() throws {
        let encoder = try VP8Encoder(configuration: VP8EncoderConfiguration(width: 320, height: 240))
        let decoder = try VP8Decoder()
        let encoded = try #require(try encoder.encode(TestPatternSource.frame(counter: 7, width: 320, height: 240)))
        var giant = encoded.data
        giant[6] = 0xFF; giant[7] = 0x3F; giant[8] = 0xFF; giant[9] = 0x3F  // 14-bit width and height 16383, no scaling
        #expect(throws: VP8Error.frameTooLarge(width: 16383, height: 16383, maximumWidth: 4096, maximumHeight: 4096)) {
            try decoder.decode(giant)
        }
        // The limit is configurable; the same decoder still takes the genuine keyframe.
        let small = try VP8Decoder(maximumSize: (width: 160, height: 120))
        #expect(throws: VP8Error.frameTooLarge(width: 320, height: 240, maximumWidth: 160, maximumHeight: 120)) {
            try small.decode(encoded)
        }
        let picture = try #require(try decoder.decode(encoded))
        #expect(picture.width == 320 && TestPatternReader.counter(in: picture) == 7)
    }

    @Test("garbage given to the decoder throws instead of crashing")
    func garbageDecode() throws {
        let decoder = try VP8Decoder()
        #expect(throws: VP8Error.self) { try decoder.decode([UInt8]()) }
        var random = SeededRandomBytes(seed: 11)
        for _ in 0..<300 {
            _ = try? decoder.decode(random.bytes(count: Int(random.next() % 400) + 1))
        }
    }

    /// Bits the encoder makes in the second after its rate falls from `from` to `to` kbit/s,
    /// after four seconds at `from`, on a 640x480 test pattern, frames dropped to hold the rate.
    static func bitsAfterACut(from: Int, to: Int) throws -> Int {
        var configuration = VP8EncoderConfiguration(width: 640, height: 480, bitrateKbps: from)
        configuration.dropsFramesToHoldBitrate = true
        let encoder = try VP8Encoder(configuration: configuration)
        var source = TestPatternSource(width: 640, height: 480)
        _ = try bits(of: 120, from: &source, through: encoder)
        try encoder.setBitrate(kbps: to)
        return try bits(of: 30, from: &source, through: encoder)
    }

    /// Bits `encoder` makes of the next `count` pictures of `source`.
    static func bits(of count: Int, from source: inout TestPatternSource, through encoder: VP8Encoder) throws -> Int {
        var bits = 0
        for _ in 0..<count { bits += (try encoder.encode(source.nextFrame())?.data.count ?? 0) * 8 }
        return bits
    }

    @Test("a lower bitrate takes effect in the next second: the credit saved at the old rate is not spent at the new one (1.16x the new rate; 1.31x with the credit kept)")
    func aCutIsNotOvershot() throws {
        let bits = try Self.bitsAfterACut(from: 1_500, to: 250)
        #expect(bits <= 250_000 * 122 / 100, "\(bits) bits in the second after a cut from 1,500 to 250 kbit/s")
    }

    /// Bits a second VP8 makes of a 640x480 test pattern allowed `kbps`, after a second to settle.
    static func bitsPerSecond(allowed kbps: Int, grain: Int) throws -> Int {
        let encoder = try VP8Encoder(configuration: VP8EncoderConfiguration(width: 640, height: 480, bitrateKbps: kbps))
        var source = TestPatternSource(width: 640, height: 480, grain: grain)
        _ = try bits(of: 30, from: &source, through: encoder)
        return try bits(of: 30, from: &source, through: encoder)
    }

    @Test("every second picture skipped (15 frames/s from a 30 frames/s camera): timestamps step by two frames, and the frames sent carry the skipped ones' bits: the rate holds within 25 %")
    func skippedFramesKeepTimeAndTheRate() throws {
        let encoder = try VP8Encoder(configuration: VP8EncoderConfiguration(width: 640, height: 480, bitrateKbps: 400))
        var source = TestPatternSource(width: 640, height: 480, grain: 4)
        var timestamps: [UInt32] = []
        var bits = 0
        for index in 0..<120 {
            let picture = source.nextFrame()
            if index % 2 == 1 {
                encoder.skip()
                continue
            }
            guard let frame = try encoder.encode(picture) else { continue }
            timestamps.append(frame.timestamp)
            if index >= 60 { bits += frame.data.count * 8 }
        }
        let steps = zip(timestamps, timestamps.dropFirst()).map { $1 &- $0 }
        #expect(!steps.isEmpty && steps.allSatisfy { $0 % 6_000 == 0 }, "timestamp steps \(Set(steps))")
        // Pictures 60...119 are the last two seconds.
        #expect(bits / 2 >= 300_000 && bits / 2 <= 500_000, "\(bits / 2) bit/s over the last two seconds at 15 frames/s, allowed 400 kbit/s")
    }

    @Test("allowed 1,700 kbit/s (the default ceiling at 640x480), VP8 makes under 1,000 of the plain pattern and at least 1,400 of the grained one: only a picture with grain tests a congestion controller at that rate")
    func grainMakesThePatternUseTheBitrate() throws {
        let plain = try Self.bitsPerSecond(allowed: 1_700, grain: 0)
        let grained = try Self.bitsPerSecond(allowed: 1_700, grain: 4)
        #expect(plain < 1_000_000, "plain: \(plain) bit/s")
        #expect(grained >= 1_400_000, "grain 4: \(grained) bit/s")
    }

    @Test("the default ceiling by picture size is libwebrtc's", arguments: [
        (320, 240, 600), (160, 120, 600), (640, 360, 1_700), (640, 480, 1_700), (960, 540, 2_000), (1280, 720, 2_500), (1920, 1080, 2_500),
    ])
    func defaultCeilingFollowsThePictureSize(width: Int, height: Int, kbps: Int) {
        #expect(VP8EncoderConfiguration.defaultMaximumBitrateKbps(width: width, height: height) == kbps)
    }

    @Test("30 test-pattern frames through encode, packetize at MTU 1200, depacketize, decode read back 0...29 (100 and 600 kb/s)",
          arguments: [100, 600])
    func videoPipeline(bitrateKbps: Int) throws {
        let encoder = try VP8Encoder(configuration: VP8EncoderConfiguration(width: 320, height: 240, bitrateKbps: bitrateKbps))
        let decoder = try VP8Decoder()
        var packetizer = VP8Packetizer(maxPayloadSize: 1200, initialPictureID: 32_760)
        var depacketizer = VP8Depacketizer()
        var source = TestPatternSource()
        var sequence: UInt16 = 65_530
        var counters: [UInt16] = []
        var pictureIDs: [UInt16] = []
        for _ in 0..<30 {
            let encoded = try #require(try encoder.encode(source.nextFrame()))
            let units = packetizer.packetize(encoded)
            for var unit in units {
                #expect(unit.payload.count <= 1200)
                unit.sequenceNumber = sequence
                sequence &+= 1
                if let frame = try depacketizer.push(unit) {
                    #expect(frame.data == encoded.data && frame.isKeyframe == encoded.isKeyframe)
                    pictureIDs.append(try #require(frame.pictureID))
                    let picture = try #require(try decoder.decode(frame))
                    counters.append(try #require(TestPatternReader.counter(in: picture)))
                }
            }
        }
        #expect(counters == Array(0..<30))
        #expect(pictureIDs.prefix(9) == [32_760, 32_761, 32_762, 32_763, 32_764, 32_765, 32_766, 32_767, 0])
        #expect(depacketizer.statistics.framesDropped == 0)
    }

    @Test("a lost payload drops one frame; with a keyframe requested at once, every other counter reads back")
    func videoPipelineWithLossAndKeyframeRequest() throws {
        let encoder = try VP8Encoder(configuration: VP8EncoderConfiguration(width: 320, height: 240, bitrateKbps: 600))
        let decoder = try VP8Decoder()
        // libvpx's real-time mode adapts its speed to wall-clock time, so frame sizes vary between runs;
        // a 120-byte MTU makes sure every frame spans several payloads.
        var packetizer = VP8Packetizer(maxPayloadSize: 120)
        var depacketizer = VP8Depacketizer()
        var source = TestPatternSource()
        var sequence: UInt16 = 0
        var readBack: [UInt16?] = []
        var lostFrames: Set<Int> = []
        for index in 0..<30 {
            let encoded = try #require(try encoder.encode(source.nextFrame()))
            var units = packetizer.packetize(encoded)
            for unit in units.indices { units[unit].sequenceNumber = sequence; sequence &+= 1 }
            if index == 10, units.count >= 3 {
                units.remove(at: 1)   // a middle payload of frame 10 is lost on the way
                lostFrames.insert(index)
            }
            let dropsBefore = depacketizer.statistics.framesDropped
            for unit in units {
                if let frame = try depacketizer.push(unit) {
                    // A decoder fed a frame whose reference is missing may fail; that is a reason for a PLI.
                    let picture = try? decoder.decode(frame)
                    readBack.append(picture.flatMap { TestPatternReader.counter(in: $0) })
                }
            }
            if depacketizer.statistics.framesDropped > dropsBefore {
                encoder.requestKeyframe()   // what the receiver's RTCP PLI triggers
            }
        }
        #expect(lostFrames == [10], "frame 10 should have spanned several payloads at MTU 120")
        #expect(depacketizer.statistics.framesDropped == 1)
        // Frame 10 never reaches the decoder; the keyframe requested right after makes frame 11 decodable.
        #expect(readBack == (0..<30).filter { $0 != 10 }.map { Optional(UInt16($0)) })
    }
}
