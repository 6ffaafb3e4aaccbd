import Testing
import TernMedia

@Suite("VP8 depacketizer / frame assembler (RFC 7741 §4)")
struct VP8DepacketizerTests {
    /// Packetizes frames and numbers the payloads from `firstSequence`.
    static func payloads(_ frames: [EncodedVideoFrame], mtu: Int = 1200, firstSequence: UInt16 = 100,
                         pictureID: UInt16 = 0) -> [[RTPPayloadUnit]] {
        var packetizer = VP8Packetizer(maxPayloadSize: mtu, initialPictureID: pictureID)
        var sequence = firstSequence
        return frames.map { frame in
            packetizer.packetize(frame).map { unit in
                var numbered = unit
                numbered.sequenceNumber = sequence
                sequence &+= 1
                return numbered
            }
        }
    }

    static func frames(_ sizes: [Int]) -> [EncodedVideoFrame] {
        sizes.enumerated().map { index, size in
            VP8PacketizerTests.frame(size: size, keyframe: index == 0, timestamp: UInt32(index) * 3000)
        }
    }

    @Test("frames spanning many payloads reassemble exactly, with keyframe flag and PictureID")
    func reassemblesManyPayloads() throws {
        let frames = Self.frames([40_000, 500, 7_000])
        var depacketizer = VP8Depacketizer()
        var out: [EncodedVideoFrame] = []
        for unit in Self.payloads(frames, pictureID: 32_767).joined() {
            if let frame = try depacketizer.push(unit) { out.append(frame) }
        }
        #expect(out.map(\.data) == frames.map(\.data))
        #expect(out.map(\.isKeyframe) == [true, false, false])
        #expect(out.map(\.timestamp) == [0, 3000, 6000])
        #expect(out.map(\.pictureID) == [32_767, 0, 1])
        #expect(depacketizer.statistics.framesCompleted == 3 && depacketizer.statistics.framesDropped == 0)
    }

    @Test("sequence numbers wrapping past 65535 inside a frame are not a gap")
    func sequenceWrap() throws {
        var depacketizer = VP8Depacketizer()
        var completed = 0
        for unit in Self.payloads(Self.frames([6_000]), firstSequence: 65_533).joined() {
            if try depacketizer.push(unit) != nil { completed += 1 }
        }
        #expect(completed == 1)
    }

    @Test("a missing middle payload drops that frame only; the next frame still completes")
    func missingMiddle() throws {
        var packets = Self.payloads(Self.frames([5_000, 5_000, 300]))
        packets[1].remove(at: 2)
        var depacketizer = VP8Depacketizer()
        var out: [UInt32] = []
        for unit in packets.joined() {
            if let frame = try depacketizer.push(unit) { out.append(frame.timestamp) }
        }
        #expect(out == [0, 6000])
        #expect(depacketizer.statistics.framesDropped == 1)
        #expect(depacketizer.statistics.payloadsDiscarded >= 1)
    }

    @Test("a missing first payload drops the frame")
    func missingFirst() throws {
        var packets = Self.payloads(Self.frames([100, 5_000, 100]))
        packets[1].removeFirst()
        var depacketizer = VP8Depacketizer()
        var out: [UInt32] = []
        for unit in packets.joined() {
            if let frame = try depacketizer.push(unit) { out.append(frame.timestamp) }
        }
        #expect(out == [0, 6000])
        #expect(depacketizer.statistics.framesDropped == 1)
    }

    @Test("a missing last payload (marker) drops the frame when the next frame starts")
    func missingLast() throws {
        var packets = Self.payloads(Self.frames([100, 5_000, 100]))
        packets[1].removeLast()
        var depacketizer = VP8Depacketizer()
        var out: [UInt32] = []
        for unit in packets.joined() {
            if let frame = try depacketizer.push(unit) { out.append(frame.timestamp) }
        }
        #expect(out == [0, 6000])
        #expect(depacketizer.statistics.framesDropped == 1)
    }

    @Test("an immediate duplicate payload is discarded and the frame still completes")
    func duplicatePayload() throws {
        let packets = Self.payloads(Self.frames([3_000]))[0]
        var depacketizer = VP8Depacketizer()
        var out: [EncodedVideoFrame] = []
        for unit in [packets[0], packets[0], packets[1], packets[1], packets[2]] {
            if let frame = try depacketizer.push(unit) { out.append(frame) }
        }
        #expect(out.count == 1 && out.first?.data.count == 3_000)
        #expect(depacketizer.statistics.payloadsDiscarded == 2 && depacketizer.statistics.framesDropped == 0)
    }

    @Test("keyframe detection reads the P bit of the VP8 payload header (RFC 7741 §4.3)")
    func keyframeBit() throws {
        var depacketizer = VP8Depacketizer()
        // Descriptor S=1, PID=0; payload header byte 0x9D has P = 1 (interframe), 0x9C has P = 0 (keyframe).
        let inter = try depacketizer.push(RTPPayloadUnit(payload: [0x10, 0x9D, 0x01, 0x2A], marker: true, timestamp: 1, sequenceNumber: 1))
        let key = try depacketizer.push(RTPPayloadUnit(payload: [0x10, 0x9C, 0x01, 0x2A], marker: true, timestamp: 2, sequenceNumber: 2))
        #expect(inter?.isKeyframe == false)
        #expect(key?.isKeyframe == true)
        #expect(inter?.pictureID == nil)
    }

    @Test("malformed payloads are typed errors that abandon the frame in progress", arguments: [
        ([UInt8](), "empty"),
        ([0x90, 0x80], "PictureID missing"),
        ([0x10], "descriptor without data"),
        ([0x10, 0x9C], "payload header shorter than 3 bytes"),
    ])
    func malformed(payload: [UInt8], _ label: String) throws {
        var depacketizer = VP8Depacketizer()
        let units = Self.payloads(Self.frames([3_000])).joined().map { $0 }
        _ = try depacketizer.push(units[0])
        #expect(throws: VP8PayloadError.self, "\(label)") {
            try depacketizer.push(RTPPayloadUnit(payload: payload, marker: false, timestamp: units[0].timestamp,
                                                 sequenceNumber: units[1].sequenceNumber))
        }
        #expect(try depacketizer.push(units[1]) == nil)
        #expect(try depacketizer.push(units[2]) == nil)
        #expect(depacketizer.statistics.payloadsMalformed == 1)
        #expect(depacketizer.statistics.framesDropped == 1)
    }

    @Test("a frame larger than maxFrameSize is dropped")
    func oversizedFrame() throws {
        var depacketizer = VP8Depacketizer(maxFrameSize: 2_000)
        var out = 0
        for unit in Self.payloads(Self.frames([5_000, 100])).joined() {
            if try depacketizer.push(unit) != nil { out += 1 }
        }
        #expect(out == 1)
        #expect(depacketizer.statistics.framesDropped == 1)
    }

    @Test("thousands of randomly mutated payloads never crash the depacketizer")
    func fuzzMutations() {
        var random = SeededRandomBytes(seed: 0x7741)
        let seeds = Self.payloads(Self.frames([3_000, 800, 20]), mtu: 300).joined().map { $0 }
        var depacketizer = VP8Depacketizer(maxFrameSize: 64 << 10)
        var errors = 0, frames = 0
        for _ in 0..<20_000 {
            var unit = seeds[Int(random.next() % UInt64(seeds.count))]
            switch random.next() % 4 {
            case 0: // flip bits in the first bytes (descriptor and payload header)
                for _ in 0..<Int(random.next() % 4 + 1) where !unit.payload.isEmpty {
                    let index = Int(random.next() % UInt64(min(unit.payload.count, 8)))
                    unit.payload[index] ^= UInt8(truncatingIfNeeded: random.next())
                }
            case 1: // truncate
                unit.payload = Array(unit.payload.prefix(Int(random.next() % 8)))
            case 2: // replace with random bytes
                unit.payload = random.bytes(count: Int(random.next() % 16))
            default: // scramble header fields
                unit.marker = random.next() % 2 == 0
                unit.sequenceNumber = UInt16(truncatingIfNeeded: random.next())
                unit.timestamp = UInt32(truncatingIfNeeded: random.next() % 4)
            }
            do {
                if try depacketizer.push(unit) != nil { frames += 1 }
            } catch {
                errors += 1
            }
        }
        let stats = depacketizer.statistics
        #expect(stats.payloadsMalformed == errors)
        #expect(errors > 1_000, "the mutations should hit the error paths")
        #expect(stats.payloadsAccepted + stats.payloadsMalformed + stats.payloadsDiscarded == 20_000)
        #expect(stats.framesCompleted == frames)
    }
}
