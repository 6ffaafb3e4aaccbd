import Testing
import TernCore
import TernMedia

@Suite("Opus codec (libopus)")
struct OpusCodecTests {
    @Test("one 20 ms frame encodes to a packet and decodes back to 960 samples")
    func smokeOneFrame() throws {
        let encoder = try OpusAudioEncoder()
        let decoder = try OpusAudioDecoder()
        var tone = SineToneSource(frequency: 440)
        let frame = try encoder.encode(tone.nextFrame())
        #expect(frame.timestamp == 0)
        #expect(frame.data.count > 2)
        #expect(OpusPacketInfo.samplesPerChannel(frame.data) == 960)
        let pcm = try decoder.decode(frame.data)
        #expect(pcm.count == 960)
        #expect(encoder.nextTimestamp == 960)
    }

    @Test("stereo frames decode to 960 interleaved sample pairs")
    func stereoFrame() throws {
        let encoder = try OpusAudioEncoder(configuration: OpusConfiguration(channels: .stereo, bitrate: 64_000))
        let decoder = try OpusAudioDecoder(channels: .stereo)
        var tone = SineToneSource(frequency: 660, channels: .stereo)
        let pcm = try decoder.decode(try encoder.encode(tone.nextFrame()).data)
        #expect(pcm.count == 1920)
    }

    @Test("a frame of the wrong length is a typed error")
    func wrongFrameSize() throws {
        let encoder = try OpusAudioEncoder()
        #expect(throws: OpusError.wrongFrameSize(expectedSamples: 960, got: 480)) {
            try encoder.encode([Int16](repeating: 0, count: 480))
        }
    }

    @Test("an empty packet is rejected and garbage does not crash the decoder")
    func badPackets() throws {
        let decoder = try OpusAudioDecoder()
        #expect(throws: OpusError.emptyPacket) { try decoder.decode([]) }
        #expect(throws: OpusError.invalidConcealmentLength(samplesPerChannel: -960)) {
            try decoder.concealLoss(samplesPerChannel: -960)
        }
        var random = SeededRandomBytes(seed: 7)
        for _ in 0..<500 {
            // Either decodes to something or throws decodeFailed; never traps.
            _ = try? decoder.decode(random.bytes(count: Int(random.next() % 300) + 1))
        }
    }

    @Test("DTX turns settled silence into 1-2 byte packets, with a refresh packet every 400 ms")
    func dtxOnSilence() throws {
        func sizes(dtx: Bool) throws -> [Int] {
            let encoder = try OpusAudioEncoder(configuration: OpusConfiguration(dtx: dtx))
            return try (0..<60).map { _ in try encoder.encode([Int16](repeating: 0, count: 960)).data.count }
        }
        let withDTX = try sizes(dtx: true).suffix(40)
        #expect(withDTX.filter { $0 <= 2 }.count >= 35, "\(withDTX)")
        #expect(withDTX.contains { $0 > 2 }, "DTX still sends a comfort-noise refresh: \(withDTX)")
        #expect(try sizes(dtx: false).allSatisfy { $0 > 2 })
    }

    @Test("1 s of 440 Hz survives Opus and is detected as 440 Hz; 660 Hz as 660 Hz")
    func toneRoundTrip() throws {
        for frequency in [440.0, 660.0] {
            let pcm = try roundTrip(frequency: frequency, dropEvery: nil, useFEC: false)
            let detected = try #require(ToneDetector.dominantFrequency(in: pcm))
            #expect(abs(detected - frequency) <= 3, "sent \(frequency) Hz, detected \(detected) Hz")
            #expect(ToneDetector.strongest(of: [440, 660], in: pcm) == frequency)
        }
    }

    @Test("with every 10th packet lost, FEC recovery keeps the tone detectable")
    func toneWithLossAndFEC() throws {
        let pcm = try roundTrip(frequency: 440, dropEvery: 10, useFEC: true)
        #expect(pcm.count == 48_000)
        let detected = try #require(ToneDetector.dominantFrequency(in: pcm))
        #expect(abs(detected - 440) <= 3, "detected \(detected) Hz")
        #expect(ToneDetector.strongest(of: [440, 660], in: pcm) == 440)
    }

    @Test("with every 10th packet lost and no next packet, PLC keeps the tone detectable")
    func toneWithLossAndPLC() throws {
        let pcm = try roundTrip(frequency: 660, dropEvery: 10, useFEC: false)
        #expect(pcm.count == 48_000)
        let detected = try #require(ToneDetector.dominantFrequency(in: pcm))
        #expect(abs(detected - 660) <= 3, "detected \(detected) Hz")
    }

    @Test("the FEC copy in the next packet rebuilds a lost frame closer to the original than PLC does")
    func fecBeatsPLC() throws {
        let encoder = try OpusAudioEncoder(configuration: OpusConfiguration(expectedPacketLossPercent: 20))
        var tone = SineToneSource(frequency: 440)
        var packets: [[UInt8]] = []
        for _ in 0..<20 { packets.append(try encoder.encode(tone.nextFrame()).data) }
        func output(at lost: Int, conceal: (OpusAudioDecoder) throws -> [Int16]) throws -> [Int16] {
            let decoder = try OpusAudioDecoder()
            for packet in packets[0..<lost] { _ = try decoder.decode(packet) }
            return try conceal(decoder)
        }
        let reference = try output(at: 10) { try $0.decode(packets[10]) }
        let fec = try output(at: 10) { try $0.concealLoss(nextPacket: packets[11]) }
        let plc = try output(at: 10) { try $0.concealLoss() }
        func error(_ pcm: [Int16]) -> Double {
            zip(pcm, reference).reduce(0.0) { sum, pair in
                let d = Double(pair.0) - Double(pair.1)
                return sum + d * d
            } / Double(reference.count)
        }
        #expect(fec.count == 960 && plc.count == 960)
        #expect(error(fec) * 10 < error(plc), "FEC error \(error(fec)) should be below PLC error \(error(plc))")
    }

    @Test("through the RFC 7587 payloader with 10% seeded random loss, timestamp gaps are concealed and 440 Hz detected")
    func payloadPathWithRandomLoss() throws {
        let encoder = try OpusAudioEncoder(initialTimestamp: 123_456)
        let decoder = try OpusAudioDecoder()
        var tone = SineToneSource(frequency: 440)
        var payloader = OpusPayloader()
        var random = SeededRandom(seed: 2026)
        var received: [RTPPayloadUnit] = []
        var lost = 0
        for _ in 0..<50 {
            let frame = try encoder.encode(tone.nextFrame())
            guard let unit = payloader.payload(for: frame) else { continue }
            if random.chance(0.1) { lost += 1 } else { received.append(unit) }
        }
        // Receiver: a gap in the 48 kHz timestamps (RFC 7587 §4.1) means lost 20 ms frames;
        // the last one before a received packet is recovered from that packet's FEC, earlier ones by PLC.
        var pcm: [Int16] = []
        var expected: UInt32 = 123_456
        for unit in received {
            let frame = try OpusPayloader.frame(from: unit)
            let missing = Int((frame.timestamp &- expected) / 960)
            for gap in 0..<missing {
                pcm += try decoder.concealLoss(nextPacket: gap == missing - 1 ? frame.data : nil)
            }
            pcm += try decoder.decode(frame.data)
            expected = frame.timestamp &+ UInt32(frame.sampleCount)
        }
        #expect(lost >= 2, "the seed should lose a few packets")
        #expect(pcm.count == Int(expected &- 123_456), "every 20 ms up to the last received packet is covered")
        let detected = try #require(ToneDetector.dominantFrequency(in: pcm))
        #expect(abs(detected - 440) <= 3, "detected \(detected) Hz with \(lost) of 50 packets lost")
    }

    /// Encodes 1 s (50 frames) of a tone, drops every `dropEvery`-th packet
    /// (deterministic pattern), conceals with FEC (using the next packet) or PLC, and returns the PCM.
    private func roundTrip(frequency: Double, dropEvery: Int?, useFEC: Bool) throws -> [Int16] {
        let encoder = try OpusAudioEncoder()
        let decoder = try OpusAudioDecoder()
        var tone = SineToneSource(frequency: frequency)
        var packets: [[UInt8]] = []
        for _ in 0..<50 { packets.append(try encoder.encode(tone.nextFrame()).data) }
        var pcm: [Int16] = []
        for (index, packet) in packets.enumerated() {
            if let dropEvery, index % dropEvery == dropEvery - 1 {
                let next = useFEC && index + 1 < packets.count ? packets[index + 1] : nil
                pcm += try decoder.concealLoss(nextPacket: next)
            } else {
                pcm += try decoder.decode(packet)
            }
        }
        return pcm
    }
}

@Suite("OpusStreamDecoder: how much is concealed")
struct OpusStreamDecoderConcealmentTests {
    /// Encoded 20 ms frames of a tone, timestamps 960 apart from 0.
    private func frames(_ count: Int) throws -> [EncodedAudioFrame] {
        let encoder = try OpusAudioEncoder()
        var tone = SineToneSource(frequency: 440)
        return try (0..<count).map { _ in try encoder.encode(tone.nextFrame()) }
    }

    @Test("three packets lost: the sequence gap and the timestamp gap agree, three frames concealed")
    func realLossIsConcealed() throws {
        let stream = try frames(6), decoder = try OpusStreamDecoder()
        #expect(try decoder.decode(stream[0], afterLosing: 0).concealed == 0)
        #expect(try decoder.decode(stream[1], afterLosing: 0).concealed == 0)
        let after = try decoder.decode(stream[5], afterLosing: 3)
        #expect(after.concealed == 3 && after.chunks.count == 4)
    }

    @Test("sequence numbers jump while timestamps run on (a hostile walk): nothing concealed, one decode a packet")
    func sequenceJumpWithContiguousTimestampsConcealsNothing() throws {
        let stream = try frames(20), decoder = try OpusStreamDecoder()
        _ = try decoder.decode(stream[0], afterLosing: 0)
        for frame in stream.dropFirst() {
            let decoded = try decoder.decode(frame, afterLosing: 2_998)
            #expect(decoded.concealed == 0 && decoded.chunks.count == 1)
        }
    }

    @Test("a timestamp gap larger than the cap conceals at most maxConcealedFrames; one going backwards conceals nothing")
    func concealmentIsCapped() throws {
        let stream = try frames(30), decoder = try OpusStreamDecoder()
        _ = try decoder.decode(stream[0], afterLosing: 0)
        #expect(try decoder.decode(stream[29], afterLosing: 28).concealed == OpusStreamDecoder.maxConcealedFrames)
        #expect(try decoder.decode(stream[10], afterLosing: 5).concealed == 0)
    }
}
