import Testing
import TernCore
import TernRTP

/// `RateMeter` and `LinkShare`: the rates they read from sizes and times, and how the estimate
/// is split between media and data channels.
@Suite struct LinkShareTests {
    static func at(_ ms: Int64) -> Instant { Instant(nanoseconds: ms * 1_000_000) }

    @Test("a meter reads the bits of its last second and forgets older slots")
    func meterReadsTheLastSecond() {
        var meter = RateMeter()
        for ms in stride(from: 0 as Int64, to: 1_000, by: 10) { meter.add(1_250, at: Self.at(ms)) }  // 1 Mbit/s
        #expect(abs(meter.bitsPerSecond(at: Self.at(999)) - 1_000_000) < 1)
        #expect(meter.bitsPerSecond(at: Self.at(1_499)) == 500_000)  // half the slots are older than a second
        #expect(meter.bitsPerSecond(at: Self.at(2_500)) == 0)
        meter.add(125, at: Self.at(2_500))  // a slot reused after a full round counts only its new bytes
        #expect(meter.bitsPerSecond(at: Self.at(2_500)) == 1_000)
    }

    @Test("a meter saturates instead of trapping on hostile sizes and ignores negative ones")
    func meterSaturates() {
        var meter = RateMeter()
        meter.add(.max, at: Self.at(0))
        meter.add(.max, at: Self.at(1))
        meter.add(-5, at: Self.at(2))
        #expect(meter.bitsPerSecond(at: Self.at(2)) == Double(Int.max) * 8)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let mediaBitsPerSecond: Int64
        let mediaWantsMore: Bool
        let dataWaiting: Bool
        let mediaTarget: Double
        let dataLimit: Double
        var testDescription: String { name }
    }

    @Test("the split of a 1 Mbit/s estimate", arguments: [
        Case(name: "media alone: all of it to media; data may still take what media leaves",
             mediaBitsPerSecond: 900_000, mediaWantsMore: false, dataWaiting: false, mediaTarget: 1_000_000, dataLimit: 300_000),
        Case(name: "both want more: media 70 %, data 30 %",
             mediaBitsPerSecond: 600_000, mediaWantsMore: true, dataWaiting: true, mediaTarget: 700_000, dataLimit: 300_000),
        Case(name: "media wants more but its encoder makes less than asked: it keeps a quarter more than it uses",
             mediaBitsPerSecond: 400_000, mediaWantsMore: true, dataWaiting: true, mediaTarget: 700_000, dataLimit: 500_000),
        Case(name: "media wants little: data gets the rest",
             mediaBitsPerSecond: 200_000, mediaWantsMore: false, dataWaiting: true, mediaTarget: 700_000, dataLimit: 800_000),
        Case(name: "no media: data gets all of it",
             mediaBitsPerSecond: 0, mediaWantsMore: false, dataWaiting: true, mediaTarget: 700_000, dataLimit: 1_000_000),
    ])
    func splits(_ c: Case) {
        var share = LinkShare()
        let now = Self.at(5_049)  // the window: the 50 ms slots from 4,050 ms to 5,049 ms
        for ms in stride(from: 4_050 as Int64, through: 5_049, by: 1) { share.mediaSent(Int(c.mediaBitsPerSecond / 8_000), now: Self.at(ms)) }
        if c.dataWaiting { share.dataWaiting(now: now) }
        #expect(abs(share.mediaTarget(1_000_000, now: now) - c.mediaTarget) < 1)
        #expect(abs(share.dataLimit(1_000_000, mediaWantsMore: c.mediaWantsMore, now: now) - c.dataLimit) < 1)
    }

    @Test("data that waited counts as wanting more for one second, then the media has the estimate back")
    func waitingHolds() {
        var share = LinkShare()
        share.dataWaiting(now: Self.at(0))
        #expect(share.dataWantsMore(now: Self.at(1_000)))
        #expect(!share.dataWantsMore(now: Self.at(1_001)))
        #expect(share.mediaTarget(1_000_000, now: Self.at(1_001)) == 1_000_000)
    }
}
