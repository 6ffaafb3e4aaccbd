import Testing
import TernMedia

@Suite("Opus RTP payload (RFC 7587)")
struct OpusPayloaderTests {
    @Test("one packet per payload, unmodified, timestamp in 48 kHz; marker on the first packet only")
    func mapsPackets() throws {
        let encoder = try OpusAudioEncoder(initialTimestamp: 1_000)
        var tone = SineToneSource(frequency: 440)
        var payloader = OpusPayloader()
        var units: [RTPPayloadUnit] = []
        for _ in 0..<3 {
            let frame = try encoder.encode(tone.nextFrame())
            let mapped = payloader.payload(for: frame)
            let unit = try #require(mapped)
            #expect(unit.payload == frame.data)
            units.append(unit)
        }
        #expect(units.map(\.timestamp) == [1_000, 1_960, 2_920])
        #expect(units.map(\.marker) == [true, false, false])
        let back = try OpusPayloader.frame(from: units[1])
        #expect(back.timestamp == 1_960 && back.sampleCount == 960 && back.data == units[1].payload)
    }

    @Test("DTX silence packets are suppressed and the next talkspurt sets the marker")
    func dtxSuppression() {
        var payloader = OpusPayloader()
        let speech = EncodedAudioFrame(timestamp: 0, data: [0x78, 1, 2, 3])
        let silence = EncodedAudioFrame(timestamp: 960, data: [0x78])
        let again = EncodedAudioFrame(timestamp: 1920, data: [0x78, 4, 5, 6])
        let first = payloader.payload(for: speech), second = payloader.payload(for: silence)
        let third = payloader.payload(for: again)
        #expect(first?.marker == true)
        #expect(second == nil)
        #expect(third?.marker == true)
    }

    @Test("an empty payload is rejected")
    func emptyPayload() {
        #expect(throws: OpusError.emptyPacket) {
            try OpusPayloader.frame(from: RTPPayloadUnit(payload: [], marker: false, timestamp: 0))
        }
    }

    @Test("TOC byte durations (RFC 6716 §3.1)", arguments: [
        ([UInt8(0x08)], 960),          // config 1: SILK NB 20 ms, code 0
        ([UInt8(0x78)], 960),          // config 15: Hybrid FB 20 ms
        ([UInt8(0xF8)], 960),          // config 31: CELT FB 20 ms
        ([UInt8(0xF9)], 1920),         // code 1: two frames
        ([UInt8(0xFB), 0x03], 2880),   // code 3: M = 3 frames
    ])
    func tocDurations(packet: [UInt8], samples: Int) {
        #expect(OpusPacketInfo.samplesPerChannel(packet) == samples)
    }

    @Test("malformed TOC packets yield nil", arguments: [[UInt8](), [0xFB], [0xFB, 0x00], [0x1B, 0x3F]])
    func tocMalformed(packet: [UInt8]) {
        #expect(OpusPacketInfo.samplesPerChannel(packet) == nil)
    }
}
