import Testing
import TernCore
@testable import TernPeer

/// How the sent picture follows the encoder's bitrate.
@Suite struct ResolutionLadderTests {
    static func at(_ seconds: Int64) -> Instant { .zero + .seconds(seconds) }

    @Test("640x480 at its configured rate stays whole; a second at 100 kbit/s halves it; a second at 30 kbit/s quarters it (never under 160 wide)")
    func stepsDownWithTheRate() {
        var ladder = ResolutionLadder()
        #expect(ladder.update(targetKbps: 800, width: 640, height: 480, now: Self.at(0)) == 1)
        #expect(ladder.update(targetKbps: 100, width: 640, height: 480, now: Self.at(1)) == 1, "short for 0 s")
        #expect(ladder.update(targetKbps: 100, width: 640, height: 480, now: Self.at(2)) == 2, "154 kbit/s needed for 640x480")
        #expect(ladder.update(targetKbps: 30, width: 640, height: 480, now: Self.at(3)) == 2)
        #expect(ladder.update(targetKbps: 30, width: 640, height: 480, now: Self.at(4)) == 4, "38 kbit/s needed for 320x240")
        #expect(ladder.update(targetKbps: 10, width: 640, height: 480, now: Self.at(6)) == 4, "160x120 is the floor")
        var small = ResolutionLadder()
        #expect(small.update(targetKbps: 10, width: 320, height: 240, now: Self.at(0)) == 2, "under half of the need: at once")
        #expect(small.update(targetKbps: 10, width: 320, height: 240, now: Self.at(1)) == 2, "not under 160 wide")
    }

    @Test("a dip under the need shorter than a second (an estimate draining a queue) keeps the size; under half of the need it shrinks at once")
    func aShortDipKeepsTheSize() {
        var ladder = ResolutionLadder()
        let start = Self.at(0)
        #expect(ladder.update(targetKbps: 800, width: 640, height: 480, now: start) == 1)
        #expect(ladder.update(targetKbps: 120, width: 640, height: 480, now: start + .milliseconds(100)) == 1)
        #expect(ladder.update(targetKbps: 140, width: 640, height: 480, now: start + .milliseconds(900)) == 1)
        #expect(ladder.update(targetKbps: 300, width: 640, height: 480, now: start + .milliseconds(1_000)) == 1, "back above the need")
        #expect(ladder.update(targetKbps: 120, width: 640, height: 480, now: start + .milliseconds(1_500)) == 1, "a new dip starts its own second")
        #expect(ladder.update(targetKbps: 70, width: 640, height: 480, now: start + .milliseconds(1_600)) == 2, "70 < 154 / 2")
    }

    @Test("grows back only with 2.5x the larger size's need held for 5 s without a break, and not within 5 s of the last change")
    func growsBackWithHysteresis() {
        var ladder = ResolutionLadder()
        _ = ladder.update(targetKbps: 70, width: 640, height: 480, now: Self.at(0))
        #expect(ladder.divisor == 2)
        #expect(ladder.update(targetKbps: 400, width: 640, height: 480, now: Self.at(3)) == 2, "within 5 s of the change")
        #expect(ladder.update(targetKbps: 300, width: 640, height: 480, now: Self.at(10)) == 2, "300 < 2.5 × 154")
        #expect(ladder.update(targetKbps: 400, width: 640, height: 480, now: Self.at(11)) == 2, "room for 0 s (since 11 s)")
        #expect(ladder.update(targetKbps: 300, width: 640, height: 480, now: Self.at(13)) == 2, "the room broke off")
        #expect(ladder.update(targetKbps: 400, width: 640, height: 480, now: Self.at(14)) == 2)
        #expect(ladder.update(targetKbps: 400, width: 640, height: 480, now: Self.at(18)) == 2, "4 s of room")
        #expect(ladder.update(targetKbps: 400, width: 640, height: 480, now: Self.at(19)) == 1, "5 s of room without a break")
    }
}
