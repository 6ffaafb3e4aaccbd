import Foundation
import Testing
@testable import TernMedia

@Suite("Synthetic sources and verifying sinks")
struct SyntheticSourceTests {
    @Test("the tone detector finds the generated frequency", arguments: [300.0, 440.0, 660.0, 1000.0])
    func toneDetection(frequency: Double) throws {
        var source = SineToneSource(frequency: frequency)
        let pcm = (0..<25).flatMap { _ in source.nextFrame() }
        let detected = try #require(ToneDetector.dominantFrequency(in: pcm))
        #expect(abs(detected - frequency) <= 1)
        #expect(ToneDetector.strongest(of: [frequency - 50, frequency, frequency + 50], in: pcm) == frequency)
    }

    @Test("silence has no dominant frequency")
    func silence() {
        #expect(ToneDetector.dominantFrequency(in: [Int16](repeating: 0, count: 9600)) == nil)
    }

    @Test("tone frames are 960 samples and the phase continues across frames")
    func toneFrames() {
        var source = SineToneSource(frequency: 440, amplitude: 0.5)
        let a = source.nextFrame(), b = source.nextFrame()
        #expect(a.count == 960 && b.count == 960)
        #expect(abs(Int(b[0]) - Int(a[959])) < 1_000)
        var stereo = SineToneSource(frequency: 440, channels: .stereo)
        let s = stereo.nextFrame()
        #expect(s.count == 1920 && s[200] == s[201])
    }

    @Test("the test-pattern counter reads back from the raw picture", arguments: [UInt16(0), 1, 29, 0x5A5A, 0xFFFF])
    func patternReadBack(counter: UInt16) {
        let frame = TestPatternSource.frame(counter: counter, width: 320, height: 240)
        #expect(TestPatternReader.counter(in: frame) == counter)
    }

    @Test("a picture without the pattern reads as nil, not as a number")
    func foreignPicture() {
        #expect(TestPatternReader.counter(in: I420Frame(width: 320, height: 240, luma: 128)) == nil)
        #expect(TestPatternReader.counter(in: I420Frame(width: 320, height: 240, luma: 16)) == nil)
    }

    @Test("the source counts up and the bar moves between frames")
    func sourceAdvances() {
        var source = TestPatternSource(width: 160, height: 120)
        let first = source.nextFrame(), second = source.nextFrame()
        #expect(TestPatternReader.counter(in: first) == 0)
        #expect(TestPatternReader.counter(in: second) == 1)
        #expect(first.y[100 * 160 ..< 101 * 160] != second.y[100 * 160 ..< 101 * 160])
    }

    @Test("grain: the bottom half's luma moves by at most ±grain levels, differently every frame and the same for the same counter; the counter blocks are untouched")
    func grainIsBoundedDeterministicAndLeavesTheCounter() {
        let plain = TestPatternSource.frame(counter: 7, width: 320, height: 240)
        let grained = TestPatternSource.frame(counter: 7, width: 320, height: 240, grain: 4)
        let next = TestPatternSource.frame(counter: 8, width: 320, height: 240, grain: 4)
        let top = TestPatternLayout(width: 320, height: 240).blockHeight * TestPatternLayout.rows
        #expect(grained.y[..<(top * 320)] == plain.y[..<(top * 320)])
        let deviations = (top * 320..<240 * 320).map { Int(grained.y[$0]) - Int(plain.y[$0]) }
        #expect(deviations.allSatisfy { abs($0) <= 4 })
        #expect(Set(deviations).count == 9, "every level of -4...4 occurs")
        #expect(grained.y == TestPatternSource.frame(counter: 7, width: 320, height: 240, grain: 4).y)
        #expect(TestPatternReader.counter(in: grained) == 7)
        let plainNext = TestPatternSource.frame(counter: 8, width: 320, height: 240)
        let changed = (top * 320..<240 * 320).filter { Int(next.y[$0]) - Int(plainNext.y[$0]) != deviations[$0 - top * 320] }.count
        #expect(changed > (240 - top) * 320 / 2, "the noise of the next frame differs at \(changed) pixels")
    }
}

@Suite struct ToneDetectorLowComponentTests {
    @Test("a 20 ms 400 Hz beep inside 100 ms carrying a far stronger 64 Hz component reads 400 Hz, not 64 Hz nor the range's edge")
    func beepBesideALowComponentReadsAsTheBeep() throws {
        let rate = 48_000.0
        let pcm: [Int16] = (0..<4_800).map { index in
            let t = Double(index) / rate
            let low = 20_000 * sin(2 * .pi * 64 * t)
            let beep = (1_920..<2_880).contains(index) ? 3_000 * sin(2 * .pi * 400 * t) : 0
            return Int16(low + beep)
        }
        let reading = try #require(ToneDetector.dominantFrequency(in: pcm))
        #expect(abs(reading - 400) < 5, "read \(reading) Hz")
    }
}
