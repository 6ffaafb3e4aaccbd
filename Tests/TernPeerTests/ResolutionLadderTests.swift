import Testing
import TernCore
@testable import TernPeer

/// How the sent picture follows the encoder's bitrate.
@Suite struct ResolutionLadderTests {
    static func at(_ seconds: Int64) -> Instant { .zero + .seconds(seconds) }

    @Test("640x480 at its configured rate stays whole; at 100 kbit/s halves; at 30 kbit/s quarters (never under 160 wide)")
    func stepsDownWithTheRate() {
        var ladder = ResolutionLadder()
        #expect(ladder.update(targetKbps: 800, width: 640, height: 480, now: Self.at(0)) == 1)
        #expect(ladder.update(targetKbps: 100, width: 640, height: 480, now: Self.at(1)) == 2, "154 kbit/s needed for 640x480")
        #expect(ladder.update(targetKbps: 30, width: 640, height: 480, now: Self.at(2)) == 4, "38 kbit/s needed for 320x240")
        #expect(ladder.update(targetKbps: 10, width: 640, height: 480, now: Self.at(3)) == 4, "160x120 is the floor")
        var small = ResolutionLadder()
        #expect(small.update(targetKbps: 10, width: 320, height: 240, now: Self.at(0)) == 2)
        #expect(small.update(targetKbps: 10, width: 320, height: 240, now: Self.at(1)) == 2, "not under 160 wide")
    }

    @Test("grows back only with 2.5x the larger size's need held for 5 s without a break, and not within 5 s of the last change")
    func growsBackWithHysteresis() {
        var ladder = ResolutionLadder()
        _ = ladder.update(targetKbps: 100, width: 640, height: 480, now: Self.at(0))
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
