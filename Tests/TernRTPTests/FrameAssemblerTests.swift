import Testing
import TernCore
import TernRTP

@Suite("Frame assembler / video jitter buffer")
struct FrameAssemblerTests {
    func ms(_ v: Int64) -> Instant { Instant(nanoseconds: v * 1_000_000) }

    /// A synthetic frame: `count` packets from `firstSeq`; the first carries payload byte 1 (frame start).
    static func frame(firstSeq: UInt16, count: Int, timestamp: UInt32) -> [RTPPacket] {
        (0..<count).map { i in
            RTPPacket(marker: i == count - 1, payloadType: 96, sequenceNumber: firstSeq &+ UInt16(i), timestamp: timestamp, ssrc: 1,
                      payload: [i == 0 ? 1 : 0][...])
        }
    }

    static let startFlag: @Sendable (RTPPacket) -> Bool = { $0.payload.first == 1 }

    @Test("in-order packets release one frame per marker")
    func inOrder() {
        var fa = FrameAssembler(isFrameStart: Self.startFlag)
        var frames: [FrameAssembler.Frame] = []
        for (n, packet) in (Self.frame(firstSeq: 0, count: 3, timestamp: 0) + Self.frame(firstSeq: 3, count: 2, timestamp: 3000)).enumerated() {
            frames += fa.insert(packet, at: ms(Int64(n))).frames
        }
        #expect(frames.map(\.timestamp) == [0, 3000])
        #expect(frames.map { $0.packets.count } == [3, 2])
        #expect(fa.bufferedPacketCount == 0)
    }

    @Test("reordered packets are reassembled in sequence order, across the 16-bit wrap")
    func reorderAndWrap() {
        var fa = FrameAssembler(isFrameStart: Self.startFlag)
        let packets = Self.frame(firstSeq: 65533, count: 5, timestamp: 90) + Self.frame(firstSeq: 2, count: 2, timestamp: 180)
        var frames: [FrameAssembler.Frame] = []
        for index in [0, 2, 1, 4, 3, 6, 5] { frames += fa.insert(packets[index], at: ms(0)).frames }
        #expect(frames.map(\.timestamp) == [90, 180])
        #expect(frames[0].packets.map(\.sequenceNumber) == [65533, 65534, 65535, 0, 1])
    }

    @Test("a later complete frame waits up to maxWait for a missing packet, which can still arrive in time")
    func waitsThenRecovers() {
        var fa = FrameAssembler(configuration: .init(maxWait: .milliseconds(100)), isFrameStart: Self.startFlag)
        let f1 = Self.frame(firstSeq: 10, count: 3, timestamp: 1)
        let f2 = Self.frame(firstSeq: 13, count: 2, timestamp: 2)
        var out = fa.insert(f1[0], at: ms(0))
        out = fa.insert(f1[2], at: ms(1))
        out = fa.insert(f2[0], at: ms(2))
        out = fa.insert(f2[1], at: ms(3))
        #expect(out.frames.isEmpty)
        #expect(fa.nextTimeout == ms(100))  // blocked since the first, incomplete frame began
        let early = fa.poll(now: ms(50))
        #expect(early.frames.isEmpty)
        out = fa.insert(f1[1], at: ms(60))  // retransmission arrives
        #expect(out.frames.map(\.timestamp) == [1, 2])
        #expect(!out.keyframeNeeded)
    }

    @Test("after maxWait the incomplete frame is dropped, later frames flow, and a keyframe is requested")
    func dropsAndRequestsKeyframe() {
        var fa = FrameAssembler(configuration: .init(maxWait: .milliseconds(100)), isFrameStart: Self.startFlag)
        let f1 = Self.frame(firstSeq: 10, count: 3, timestamp: 1)
        let f2 = Self.frame(firstSeq: 13, count: 2, timestamp: 2)
        for p in [f1[0], f1[2]] { _ = fa.insert(p, at: ms(0)) }
        #expect(fa.nextTimeout == ms(100))
        // Past the deadline with nothing later complete: no timer, so a driver does not spin.
        let idle = fa.poll(now: ms(150))
        #expect(idle.frames.isEmpty && !idle.keyframeNeeded)
        #expect(fa.nextTimeout == nil)
        _ = fa.insert(f2[0], at: ms(160))
        let out = fa.insert(f2[1], at: ms(161))
        #expect(out.keyframeNeeded)
        #expect(out.droppedFrames == 1)
        #expect(out.frames.map(\.timestamp) == [2])
        let late = fa.insert(f1[1], at: ms(170))  // too late now
        #expect(late.frames.isEmpty)
        #expect(fa.latePackets == 1)
    }

    @Test("a wholly lost frame (seq gap between frames) is detected and skipped after the wait")
    func wholeFrameLost() {
        var fa = FrameAssembler(configuration: .init(maxWait: .milliseconds(50)), isFrameStart: Self.startFlag)
        var got: [UInt32] = []
        for p in Self.frame(firstSeq: 0, count: 2, timestamp: 1) { got += fa.insert(p, at: ms(0)).frames.map(\.timestamp) }
        // frame 2 (seq 2...3) lost entirely
        for p in Self.frame(firstSeq: 4, count: 2, timestamp: 3) { got += fa.insert(p, at: ms(10)).frames.map(\.timestamp) }
        #expect(got == [1])
        let out = fa.poll(now: ms(60))
        #expect(out.keyframeNeeded)
        #expect(out.frames.map(\.timestamp) == [3])
    }

    @Test("duplicates are ignored and a missing marker keeps the frame incomplete")
    func duplicatesAndMarker() {
        var fa = FrameAssembler(isFrameStart: Self.startFlag)
        let f = Self.frame(firstSeq: 0, count: 2, timestamp: 1)
        _ = fa.insert(f[0], at: ms(0))
        _ = fa.insert(f[0], at: ms(0))
        #expect(fa.duplicatePackets == 1)
        var noMarker = f[1]
        noMarker.marker = false
        let out = fa.insert(noMarker, at: ms(0))
        #expect(out.frames.isEmpty)
    }

    @Test("successive lossy frames do not stack their waits: each is timed from its own packets' arrival")
    func waitsDoNotAccumulate() {
        var fa = FrameAssembler(configuration: .init(maxWait: .milliseconds(100)), isFrameStart: Self.startFlag)
        // Frames every 33 ms; frames 1 and 3 lose their marker packet; frames 0, 2 and 4 arrive whole.
        var released: [(UInt32, Instant)] = []
        for frame in 0..<5 {
            let at = ms(Int64(frame) * 33)
            for (i, p) in Self.frame(firstSeq: UInt16(frame * 3), count: 3, timestamp: UInt32(frame)).enumerated() {
                if (frame == 1 || frame == 3) && i == 2 { continue }
                released += fa.insert(p, at: at).frames.map { ($0.timestamp, at) }
            }
        }
        var now = ms(133)
        while now <= ms(400) {
            released += fa.poll(now: now).frames.map { ($0.timestamp, now) }
            now += .milliseconds(1)
        }
        #expect(released.map(\.0) == [0, 2, 4])
        // Frame 1 (first packet at 33 ms) is given up at 133 ms; frame 3 (first packet at 99 ms)
        // at 199 ms — not 100 ms after frame 1 was given up (233 ms).
        #expect(released.map(\.1) == [ms(0), ms(133), ms(199)])
        #expect(fa.framesDropped == 2)
    }

    @Test("joining mid-frame: packets before the first frame start are skipped, and with no start at all they expire")
    func joinMidFrame() {
        var fa = FrameAssembler(configuration: .init(maxWait: .milliseconds(50)), isFrameStart: Self.startFlag)
        let partial = Self.frame(firstSeq: 100, count: 4, timestamp: 1).dropFirst()  // start packet never seen
        var frames: [UInt32] = []
        for p in partial { frames += fa.insert(p, at: ms(0)).frames.map(\.timestamp) }
        for p in Self.frame(firstSeq: 104, count: 2, timestamp: 2) { frames += fa.insert(p, at: ms(10)).frames.map(\.timestamp) }
        #expect(frames == [2])
        #expect(fa.bufferedPacketCount == 0)

        var orphan = FrameAssembler(configuration: .init(maxWait: .milliseconds(50)), isFrameStart: Self.startFlag)
        for p in partial { _ = orphan.insert(p, at: ms(0)) }
        let out = orphan.poll(now: ms(60))
        #expect(out.keyframeNeeded)
        #expect(orphan.bufferedPacketCount == 0)
    }
}
