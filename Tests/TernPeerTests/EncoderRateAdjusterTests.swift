import Testing
import TernCore
@testable import TernPeer

/// How the rate libvpx is set to follows what it really sends against its target.
@Suite struct EncoderRateAdjusterTests {
    /// Feeds `seconds` of 30 frames/s from an encoder that sends `factor` × the rate it is set
    /// to, setting it each frame as `RTPSender` does; returns the rate it is set to at the end.
    static func settle(target: Double, factor: Double, seconds: Int, adjuster: inout EncoderRateAdjuster,
                       from start: Instant = .zero) -> Double {
        var applied = target
        var now = start
        for _ in 0..<(seconds * 30) {
            now += .microseconds(33_333)
            applied = adjuster.adjusted(target)
            adjuster.encoded(bytes: Int(applied * factor / 30 / 8), target: applied, at: now)
        }
        return applied
    }

    @Test("an encoder that sends 40 % over the rate it is set to is set to the target over 1.4, so what it sends is the target")
    func steadyOvershootIsTakenOff() {
        var adjuster = EncoderRateAdjuster()
        let applied = Self.settle(target: 300_000, factor: 1.4, seconds: 5, adjuster: &adjuster)
        #expect(abs(applied - 300_000 / 1.4) < 10_000, "set to \(Int(applied)) bit/s")
        #expect(abs(applied * 1.4 - 300_000) < 14_000, "sends \(Int(applied * 1.4)) bit/s for a 300 kbit/s target")
    }

    @Test("an encoder that hits or undershoots its rate gets the target unchanged; one that overshoots 3x is held at half")
    func undershootIsLeftAloneAndTheCutIsBounded() {
        var exact = EncoderRateAdjuster()
        #expect(Self.settle(target: 500_000, factor: 1, seconds: 3, adjuster: &exact) == 500_000)
        var under = EncoderRateAdjuster()
        #expect(Self.settle(target: 800_000, factor: 0.6, seconds: 3, adjuster: &under) == 800_000,
                "content that needs less than the target is not given more")
        var wild = EncoderRateAdjuster()
        #expect(Self.settle(target: 400_000, factor: 3, seconds: 3, adjuster: &wild) == 200_000)
    }

    @Test("an overshoot that ends (libvpx spending the credit it saved before a drop) leaves no cut a second later")
    func transientOvershootIsForgotten() {
        var adjuster = EncoderRateAdjuster()
        _ = Self.settle(target: 300_000, factor: 1.6, seconds: 2, adjuster: &adjuster)
        #expect(adjuster.adjusted(300_000) < 250_000)
        let applied = Self.settle(target: 300_000, factor: 1, seconds: 2, adjuster: &adjuster, from: .zero + .seconds(2))
        #expect(applied == 300_000, "set to \(Int(applied)) bit/s once it sends what it is set to")
    }

    @Test("frames libvpx drops count as frames of no bits; under half a second of frames says nothing")
    func droppedFramesAndShortSpans() {
        var adjuster = EncoderRateAdjuster()
        var now = Instant.zero
        for frame in 0..<10 {
            now += .microseconds(33_333)
            adjuster.encoded(bytes: frame.isMultiple(of: 2) ? 5_000 : 0, target: 600_000, at: now)
        }
        #expect(adjuster.utilization == nil, "0.3 s of frames")
        for frame in 0..<20 {
            now += .microseconds(33_333)
            adjuster.encoded(bytes: frame.isMultiple(of: 2) ? 5_000 : 0, target: 600_000, at: now)
        }
        // Every other frame of 40,000 bits at 30 frames/s: 600 kbit/s, the rate it was set to.
        let utilization = try? #require(adjuster.utilization)
        #expect(abs((utilization ?? 0) - 1) < 0.05, "utilization \(utilization ?? -1)")
    }
}
