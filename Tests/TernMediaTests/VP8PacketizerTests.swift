import Testing
import TernMedia

@Suite("VP8 packetizer (RFC 7741 §4)")
struct VP8PacketizerTests {
    static func frame(size: Int, keyframe: Bool = true, timestamp: UInt32 = 9000) -> EncodedVideoFrame {
        var data = (0..<size).map { UInt8(truncatingIfNeeded: $0 * 7 + 3) }
        // First byte: VP8 frame tag whose P bit (bit 0) is 0 for a keyframe (RFC 6386 §9.1, RFC 7741 §4.3).
        data[0] = keyframe ? 0x02 : 0x03
        return EncodedVideoFrame(timestamp: timestamp, isKeyframe: keyframe, data: data)
    }

    @Test("a small frame is one payload: S=1, PID=0, 15-bit PictureID, marker set")
    func singlePayload() throws {
        var packetizer = VP8Packetizer(maxPayloadSize: 1200, initialPictureID: 0x1234)
        let units = packetizer.packetize(Self.frame(size: 100))
        #expect(units.count == 1)
        let unit = try #require(units.first)
        #expect(Array(unit.payload.prefix(4)) == [0x90, 0x80, 0x92, 0x34])
        #expect(unit.payload.count == 104)
        #expect(unit.marker && unit.timestamp == 9000)
    }

    @Test("payload counts and sizes for frames around the MTU", arguments: [
        (1, 1), (1196, 1), (1197, 2), (2392, 2), (2393, 3), (50_000, 42),
    ])
    func splitting(size: Int, expectedPayloads: Int) throws {
        var packetizer = VP8Packetizer(maxPayloadSize: 1200)
        let frame = Self.frame(size: size)
        let units = packetizer.packetize(frame)
        #expect(units.count == expectedPayloads)
        #expect(units.allSatisfy { $0.payload.count <= 1200 && $0.timestamp == frame.timestamp })
        #expect(units.map(\.marker) == Array(repeating: false, count: expectedPayloads - 1) + [true])
        let starts = try units.map { try VP8PayloadDescriptor.parse($0.payload).0.startOfPartition }
        #expect(starts == [true] + Array(repeating: false, count: expectedPayloads - 1))
        #expect(units.flatMap { $0.payload.dropFirst(4) } == frame.data)
    }

    @Test("PictureID increases per frame and wraps from 32767 to 0")
    func pictureIDWraps() throws {
        var packetizer = VP8Packetizer(initialPictureID: 32_766)
        var ids: [UInt16] = []
        for _ in 0..<4 {
            let units = packetizer.packetize(Self.frame(size: 3000))
            let perFrame = try Set(units.map { try VP8PayloadDescriptor.parse($0.payload).0.pictureID?.value })
            #expect(perFrame.count == 1, "all payloads of a frame carry the same PictureID")
            ids.append(try #require(perFrame.first ?? nil))
        }
        #expect(ids == [32_766, 32_767, 0, 1])
    }

    @Test("an initial PictureID above 15 bits is reduced to 15 bits")
    func initialPictureIDMasked() {
        #expect(VP8Packetizer(initialPictureID: 0xFFFF).nextPictureID == 0x7FFF)
    }

    @Test("an empty frame yields no payloads and does not consume a PictureID")
    func emptyFrame() {
        var packetizer = VP8Packetizer(initialPictureID: 9)
        #expect(packetizer.packetize(EncodedVideoFrame(timestamp: 0, isKeyframe: false, data: [])).isEmpty)
        #expect(packetizer.nextPictureID == 9)
    }
}
