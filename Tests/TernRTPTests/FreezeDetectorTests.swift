import Testing
import TernCore
import TernRTP

/// W3C webrtc-stats freezes: an interval between rendered frames of at least
/// max(3 × average, average + 150 ms), the average over the last 30 intervals.
@Suite struct FreezeDetectorTests {
    static func at(_ ms: Int64) -> Instant { .zero + .milliseconds(ms) }

    @Test("steady 30 fps: no freeze, 30 frames per second")
    func steadyStream() {
        var detector = FreezeDetector()
        for frame in 0..<300 { detector.frameRendered(at: Self.at(Int64(frame) * 33)) }
        #expect(detector.freezeCount == 0 && detector.totalFreezesDuration == 0)
        #expect(detector.framesPerSecond(at: Self.at(299 * 33)) == 31)  // 31 frames within the closed last second
    }

    @Test("a 500 ms gap at 30 fps is one freeze of 0.5 s; a 120 ms gap is not (under average + 150 ms)")
    func gapsAgainstTheThreshold() {
        var detector = FreezeDetector()
        var t: Int64 = 0
        for _ in 0..<60 { detector.frameRendered(at: Self.at(t)); t += 33 }
        t += 120 - 33
        detector.frameRendered(at: Self.at(t))
        #expect(detector.freezeCount == 0, "120 ms < max(3 × 33, 33 + 150) ms")
        for _ in 0..<60 { t += 33; detector.frameRendered(at: Self.at(t)) }
        t += 500
        detector.frameRendered(at: Self.at(t))
        #expect(detector.freezeCount == 1)
        #expect(abs(detector.totalFreezesDuration - 0.5) < 0.001)
    }

    @Test("at 5 fps the threshold is 3 × 200 ms: a 500 ms gap is no freeze, 700 ms is")
    func slowStreamThreshold() {
        var detector = FreezeDetector()
        var t: Int64 = 0
        for _ in 0..<40 { detector.frameRendered(at: Self.at(t)); t += 200 }
        detector.frameRendered(at: Self.at(t - 200 + 500))
        #expect(detector.freezeCount == 0)
        detector.frameRendered(at: Self.at(t - 200 + 500 + 700))
        #expect(detector.freezeCount == 1)
    }
}
