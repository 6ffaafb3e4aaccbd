import Testing
import TernCore
import TernRTP

@Suite("Audio reorder buffer")
struct AudioReorderBufferTests {
    static func packet(_ seq: UInt16) -> RTPPacket {
        RTPPacket(payloadType: 111, sequenceNumber: seq, timestamp: UInt32(seq) &* 960, ssrc: 1, payload: [UInt8(truncatingIfNeeded: seq)][...])
    }
    static func ms(_ value: Int64) -> Instant { .zero + .milliseconds(value) }
    static func sequence(_ outputs: [AudioReorderBuffer.Output]) -> [String] {
        outputs.map { output in
            switch output {
            case let .packet(packet): "\(packet.sequenceNumber)"
            case let .lost(count): "lost\(count)"
            }
        }
    }

    @Test("in-order packets are released at once")
    func inOrder() {
        var buffer = AudioReorderBuffer()
        var released: [String] = []
        for seq: UInt16 in 10..<15 { released += Self.sequence(buffer.insert(Self.packet(seq), at: Self.ms(Int64(seq)))) }
        #expect(released == ["10", "11", "12", "13", "14"])
        #expect(buffer.nextTimeout == nil)
    }

    @Test("a packet overtaken within maxWait is put back in order; nothing is reported lost")
    func reorderWithinWait() {
        var buffer = AudioReorderBuffer()
        var released = Self.sequence(buffer.insert(Self.packet(1), at: Self.ms(0)))
        released += Self.sequence(buffer.insert(Self.packet(3), at: Self.ms(20)))
        released += Self.sequence(buffer.insert(Self.packet(4), at: Self.ms(40)))
        #expect(buffer.nextTimeout == Self.ms(80))
        released += Self.sequence(buffer.insert(Self.packet(2), at: Self.ms(50)))
        #expect(released == ["1", "2", "3", "4"])
        #expect(buffer.lostPackets == 0 && buffer.latePackets == 0)
    }

    @Test("a gap not filled within maxWait is reported lost once, then the held packets follow; the straggler is late")
    func lossAfterWait() {
        var buffer = AudioReorderBuffer(configuration: .init(maxWait: .milliseconds(60)))
        var released = Self.sequence(buffer.insert(Self.packet(1), at: Self.ms(0)))
        released += Self.sequence(buffer.insert(Self.packet(4), at: Self.ms(20)))
        released += Self.sequence(buffer.poll(now: Self.ms(79)))
        #expect(released == ["1"])
        released += Self.sequence(buffer.poll(now: Self.ms(80)))
        #expect(released == ["1", "lost2", "4"])
        #expect(Self.sequence(buffer.insert(Self.packet(2), at: Self.ms(90))).isEmpty)
        #expect(buffer.latePackets == 1 && buffer.lostPackets == 2)
    }

    @Test("duplicates are dropped and counted; sequence numbers wrap")
    func duplicatesAndWrap() {
        var buffer = AudioReorderBuffer()
        var released = Self.sequence(buffer.insert(Self.packet(65_534), at: Self.ms(0)))
        released += Self.sequence(buffer.insert(Self.packet(0), at: Self.ms(1)))
        released += Self.sequence(buffer.insert(Self.packet(65_535), at: Self.ms(2)))
        released += Self.sequence(buffer.insert(Self.packet(65_535), at: Self.ms(3)))
        released += Self.sequence(buffer.insert(Self.packet(1), at: Self.ms(4)))
        #expect(released == ["65534", "65535", "0", "1"])
        #expect(buffer.latePackets == 1, "the second 65535 came after its place was released")
    }

    @Test("holding more than maxHeld packets gives up the oldest gap at once")
    func overflow() {
        var buffer = AudioReorderBuffer(configuration: .init(maxWait: .seconds(10), maxHeld: 3))
        var released = Self.sequence(buffer.insert(Self.packet(1), at: Self.ms(0)))
        for seq: UInt16 in 3...6 { released += Self.sequence(buffer.insert(Self.packet(seq), at: Self.ms(1))) }
        #expect(released == ["1", "lost1", "3", "4", "5", "6"])
    }
}
