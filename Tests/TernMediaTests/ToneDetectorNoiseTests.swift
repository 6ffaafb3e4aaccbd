import Foundation
import Testing
import TernCore
import TernMedia

/// A tone check must fail on what is not a tone: noise, however loud, reads as no tone, while a
/// tone under as much noise is still read to the hertz.
@Suite struct ToneDetectorNoiseTests {
    /// Uniform white noise, peak `amplitude`.
    static func whiteNoise(count: Int, amplitude: Double, seed: UInt64) -> [Double] {
        var random = SeededRandom(seed: seed)
        return (0..<count).map { _ in Double.random(in: -amplitude...amplitude, using: &random) }
    }

    static func pcm(_ values: [Double]) -> [Int16] {
        values.map { Int16(clamping: Int($0.rounded())) }
    }

    static func tone(_ frequency: Double, count: Int, amplitude: Double) -> [Double] {
        (0..<count).map { amplitude * sin(2 * .pi * frequency * Double($0) / 48_000) }
    }

    @Test("loud white noise has no tone, scanned or among known tones", arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func whiteNoiseIsNoTone(seed: UInt64) {
        let noise = Self.pcm(Self.whiteNoise(count: 4_800, amplitude: 20_000, seed: seed))
        #expect(ToneDetector.dominantFrequency(in: noise) == nil)
        #expect(ToneDetector.strongest(of: [440, 660, 880], in: noise) == nil)
    }

    @Test("brown noise, strongest at the bottom of the scan, has no tone either")
    func brownNoiseIsNoTone() {
        var level = 0.0
        let brown = Self.whiteNoise(count: 4_800, amplitude: 1_000, seed: 42).map { step -> Double in
            level = 0.995 * level + step
            return level
        }
        #expect(ToneDetector.dominantFrequency(in: Self.pcm(brown)) == nil)
    }

    @Test("a tone as loud as the white noise around it is read to the hertz", arguments: [440.0, 660.0])
    func toneInNoiseIsRead(frequency: Double) throws {
        let noise = Self.whiteNoise(count: 4_800, amplitude: 8_000, seed: 9)
        // Uniform noise of peak A has power A²/3; a sine of amplitude a has a²/2: equal at a = A·√(2/3).
        let tone = Self.tone(frequency, count: 4_800, amplitude: 8_000 * (2.0 / 3).squareRoot())
        let pcm = Self.pcm(zip(noise, tone).map(+))
        let reading = try #require(ToneDetector.dominantFrequency(in: pcm))
        #expect(abs(reading - frequency) <= 1)
        #expect(ToneDetector.strongest(of: [440, 660, 880], in: pcm) == frequency)
    }

    @Test("a tracker fed noise for ten seconds reports no tone, so a check expecting 440 Hz fails")
    func trackerHearsNoToneInNoise() {
        var tracker = ToneTracker()
        tracker.append(Self.pcm(Self.whiteNoise(count: 480_000, amplitude: 12_000, seed: 7)))
        #expect(tracker.frequency == nil)
        #expect(tracker.readingCount == 0)
    }
}
