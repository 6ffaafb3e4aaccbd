import Testing
import TernCore
import TernMedia
@testable import TernPeer

/// How the sent frame rate and picture follow the encoder's bitrate ("balanced": rate first).
@Suite struct DegradationLadderTests {
    typealias Step = DegradationLadder.Step
    static func at(_ seconds: Int64) -> Instant { .zero + .seconds(seconds) }

    @Test("the rungs: 640x480 keeps every second frame before it halves, 320x240 every third; never under 160 wide", arguments: [
        (640, 480, [Step(divisor: 1, frameInterval: 1), Step(divisor: 1, frameInterval: 2), Step(divisor: 2, frameInterval: 2),
                    Step(divisor: 2, frameInterval: 3), Step(divisor: 4, frameInterval: 3)]),
        (320, 240, [Step(divisor: 1, frameInterval: 1), Step(divisor: 1, frameInterval: 2), Step(divisor: 1, frameInterval: 3),
                    Step(divisor: 2, frameInterval: 3)]),
        (1280, 720, [Step(divisor: 1, frameInterval: 1), Step(divisor: 1, frameInterval: 2), Step(divisor: 2, frameInterval: 2),
                     Step(divisor: 4, frameInterval: 2), Step(divisor: 4, frameInterval: 3)]),
    ])
    func rungs(width: Int, height: Int, expected: [Step]) {
        #expect(DegradationLadder.steps(width: width, height: height) == expected)
    }

    @Test("640x480 at its configured rate stays whole at 30 frames/s; short of a step's need for a second it takes the next: frame rate first, then size")
    func stepsDownFrameRateFirst() {
        var ladder = DegradationLadder()
        #expect(ladder.update(targetKbps: 800, width: 640, height: 480, now: Self.at(0)) == Step(divisor: 1, frameInterval: 1))
        #expect(ladder.update(targetKbps: 100, width: 640, height: 480, now: Self.at(1)) == Step(divisor: 1, frameInterval: 1),
                "short for 0 s")
        #expect(ladder.update(targetKbps: 100, width: 640, height: 480, now: Self.at(2)) == Step(divisor: 1, frameInterval: 2),
                "154 kbit/s needed for 640x480 at 30 frames/s")
        #expect(ladder.update(targetKbps: 100, width: 640, height: 480, now: Self.at(3)) == Step(divisor: 1, frameInterval: 2))
        #expect(ladder.update(targetKbps: 100, width: 640, height: 480, now: Self.at(4)) == Step(divisor: 2, frameInterval: 2),
                "102 kbit/s needed at 15 frames/s")
        #expect(ladder.update(targetKbps: 12, width: 640, height: 480, now: Self.at(5)) == Step(divisor: 2, frameInterval: 3),
                "12 < 26 / 2 for 320x240 at 15: at once")
        #expect(ladder.update(targetKbps: 8, width: 640, height: 480, now: Self.at(6)) == Step(divisor: 4, frameInterval: 3),
                "8 < 19 / 2 for 320x240 at 10: at once")
        #expect(ladder.update(targetKbps: 1, width: 640, height: 480, now: Self.at(8)) == Step(divisor: 4, frameInterval: 3),
                "160x120 at 10 frames/s is the floor")
        var small = DegradationLadder()
        #expect(small.update(targetKbps: 10, width: 320, height: 240, now: Self.at(0)) == Step(divisor: 1, frameInterval: 2),
                "under half of the need: at once")
    }

    @Test("a dip under the need shorter than a second (an estimate draining a queue) keeps the step; under half of the need it steps at once")
    func aShortDipKeepsTheStep() {
        var ladder = DegradationLadder()
        let start = Self.at(0)
        let whole = Step(divisor: 1, frameInterval: 1)
        #expect(ladder.update(targetKbps: 800, width: 640, height: 480, now: start) == whole)
        #expect(ladder.update(targetKbps: 120, width: 640, height: 480, now: start + .milliseconds(100)) == whole)
        #expect(ladder.update(targetKbps: 140, width: 640, height: 480, now: start + .milliseconds(900)) == whole)
        #expect(ladder.update(targetKbps: 300, width: 640, height: 480, now: start + .milliseconds(1_000)) == whole, "back above the need")
        #expect(ladder.update(targetKbps: 120, width: 640, height: 480, now: start + .milliseconds(1_500)) == whole,
                "a new dip starts its own second")
        #expect(ladder.update(targetKbps: 70, width: 640, height: 480, now: start + .milliseconds(1_600))
                == Step(divisor: 1, frameInterval: 2), "70 < 154 / 2")
    }

    @Test("steps back up only with 2.5x the step above's need held for 5 s without a break, and not within 5 s of the last change")
    func growsBackWithHysteresis() {
        var ladder = DegradationLadder()
        _ = ladder.update(targetKbps: 70, width: 640, height: 480, now: Self.at(0))
        _ = ladder.update(targetKbps: 40, width: 640, height: 480, now: Self.at(0))
        #expect(ladder.step == Step(divisor: 2, frameInterval: 2))
        // The step above (640x480 at 15 frames/s) needs 102 kbit/s: 2.5 × that is 256.
        #expect(ladder.update(targetKbps: 400, width: 640, height: 480, now: Self.at(3)) == Step(divisor: 2, frameInterval: 2),
                "within 5 s of the change")
        #expect(ladder.update(targetKbps: 250, width: 640, height: 480, now: Self.at(10)) == Step(divisor: 2, frameInterval: 2),
                "250 < 2.5 × 102")
        #expect(ladder.update(targetKbps: 400, width: 640, height: 480, now: Self.at(11)) == Step(divisor: 2, frameInterval: 2),
                "room for 0 s (since 11 s)")
        #expect(ladder.update(targetKbps: 250, width: 640, height: 480, now: Self.at(13)) == Step(divisor: 2, frameInterval: 2),
                "the room broke off")
        #expect(ladder.update(targetKbps: 400, width: 640, height: 480, now: Self.at(14)) == Step(divisor: 2, frameInterval: 2))
        #expect(ladder.update(targetKbps: 400, width: 640, height: 480, now: Self.at(18)) == Step(divisor: 2, frameInterval: 2),
                "4 s of room")
        #expect(ladder.update(targetKbps: 400, width: 640, height: 480, now: Self.at(19)) == Step(divisor: 1, frameInterval: 2),
                "5 s of room without a break: the size first")
        #expect(ladder.update(targetKbps: 380, width: 640, height: 480, now: Self.at(24)) == Step(divisor: 1, frameInterval: 2),
                "380 < 2.5 × 154: not yet 30 frames/s")
        #expect(ladder.update(targetKbps: 400, width: 640, height: 480, now: Self.at(30)) == Step(divisor: 1, frameInterval: 2))
        #expect(ladder.update(targetKbps: 390, width: 640, height: 480, now: Self.at(31)) == Step(divisor: 1, frameInterval: 2))
        #expect(ladder.update(targetKbps: 390, width: 640, height: 480, now: Self.at(36)) == Step(divisor: 1, frameInterval: 1),
                "390 ≥ 2.5 × 154 for 5 s")
    }

    @Test("a frame rate that rises at the same size brings the encoder's rate in over a second from the old rate's share; a new size or a lower rate does not")
    func frameRateRiseRampsTheEncoderRate() {
        var ladder = DegradationLadder()
        _ = ladder.update(targetKbps: 60, width: 640, height: 480, now: Self.at(0))
        #expect(ladder.step == Step(divisor: 1, frameInterval: 2))
        #expect(ladder.encoderRateShare(now: Self.at(0)) == 1, "a lower frame rate: all of the rate")
        for second in 1...6 { _ = ladder.update(targetKbps: 400, width: 640, height: 480, now: Self.at(Int64(second))) }
        #expect(ladder.step == Step(divisor: 1, frameInterval: 1))
        let raised = Self.at(6)
        #expect(ladder.encoderRateShare(now: raised) == 0.5, "15 → 30 frames/s: the share 15 had")
        #expect(abs(ladder.encoderRateShare(now: raised + .milliseconds(500)) - 0.75) < 1e-9)
        #expect(ladder.encoderRateShare(now: raised + .seconds(1)) == 1)

        var small = DegradationLadder()
        for _ in 0..<3 { _ = small.update(targetKbps: 1, width: 320, height: 240, now: Self.at(0)) }
        #expect(small.step == Step(divisor: 2, frameInterval: 3))
        for second in 1...6 { _ = small.update(targetKbps: 400, width: 320, height: 240, now: Self.at(Int64(second))) }
        #expect(small.step == Step(divisor: 1, frameInterval: 3))
        #expect(small.encoderRateShare(now: Self.at(6)) == 1, "a new size is a new encoder: no ramp")
        for second in 7...12 { _ = small.update(targetKbps: 400, width: 320, height: 240, now: Self.at(Int64(second))) }
        #expect(small.step == Step(divisor: 1, frameInterval: 2))
        #expect(abs(small.encoderRateShare(now: Self.at(12)) - 2.0 / 3) < 1e-9, "10 → 15 frames/s")
    }

    @Test("libvpx raised from 15 to 30 frames/s at 413 kbit/s (640x480, camera grain) stays within 1.15x its target in every second with the ramp; without it, it overshoots by 1.3x or more")
    func frameRateRampHoldsLibvpxToItsTarget() throws {
        /// The most bits the encoder made in any second (sliding, in 200 ms steps) from 5 s on.
        func worstSecond(ramped: Bool) throws -> Double {
            var source = TestPatternSource(width: 640, height: 480, grain: 4)
            var configuration = VP8EncoderConfiguration(width: 640, height: 480, bitrateKbps: 413)
            configuration.dropsFramesToHoldBitrate = true
            let encoder = try VP8Encoder(configuration: configuration, initialTimestamp: 0)
            var ladder = DegradationLadder()
            var windows: [Int] = [], windowBytes = 0
            for frame in 0..<(30 * 8) {   // 30 source frames a second: 15 at the lower step
                let now = Instant.zero + .milliseconds(Int64(frame) * 100 / 3)
                // Short for a moment (15 frames/s), then room for 30 from 1 s: it rises at 6 s.
                let step = ladder.update(targetKbps: frame < 30 ? 60 : 413, width: 640, height: 480, now: now)
                if ramped { try encoder.setBitrate(kbps: Int(413 * ladder.encoderRateShare(now: now))) }
                let picture = source.nextFrame()
                if frame % step.frameInterval != 0 { encoder.skip() } else {
                    windowBytes += try encoder.encode(picture)?.data.count ?? 0
                }
                if frame % 6 == 5 { windows.append(windowBytes); windowBytes = 0 }
            }
            #expect(ladder.step == Step(divisor: 1, frameInterval: 1), "30 frames/s by the end")
            let fromFiveSeconds = Array(windows.dropFirst(25))
            return (0...(fromFiveSeconds.count - 5)).map { Double(fromFiveSeconds[$0..<($0 + 5)].reduce(0, +)) * 8 / 1000 }.max() ?? 0
        }
        let ramped = try worstSecond(ramped: true)
        #expect(ramped <= 1.15 * 413, "\(ramped) kbit/s in the worst second")
        let unramped = try worstSecond(ramped: false)
        #expect(unramped >= 1.3 * 413, "\(unramped) kbit/s: the overshoot the ramp is for")
    }
}
