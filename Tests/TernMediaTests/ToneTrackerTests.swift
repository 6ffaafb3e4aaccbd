import Foundation
import Testing
import TernMedia

/// The tone checks used by `tern call` and `tern peer` follow a tone through a call: continuous
/// test tones, and beeps that sound 20 ms in every 500 ms as Chromium's fake microphone plays.
@Suite struct ToneTrackerTests {
    /// `seconds` of 48 kHz mono: a `frequency` beep of `beepMs` every 500 ms over quiet noise.
    /// With `ringing`, each beep is followed by a ~60 Hz oscillation decaying over ~300 ms, as
    /// Chromium's beep arrives after its audio processing (captured from a Tern↔Chromium call:
    /// peaks of 0.12 of full scale 10 ms after the beep, 0.003 after 300 ms).
    static func beeps(frequency: Double, beepMs: Int, seconds: Double, offsetMs: Int = 137,
                      ringing: Bool = false) -> [Int16] {
        var noise = SystemRandomNumberGenerator()
        return (0..<Int(seconds * 48_000)).map { i in
            let inPeriod = (i / 48 + offsetMs) % 500
            let hiss = Double(Int16.random(in: -40...40, using: &noise))
            guard inPeriod < beepMs else {
                guard ringing else { return Int16(hiss) }
                let after = Double(inPeriod - beepMs) / 1_000
                return Int16(0.12 * 32_767 * exp(-after / 0.06) * sin(2 * Double.pi * 60 * Double(i) / 48_000) + hiss)
            }
            return Int16(0.3 * 32_767 * sin(2 * Double.pi * frequency * Double(i) / 48_000) + hiss)
        }
    }

    @Test("a continuous tone is read to the hertz, scanning or among known tones",
          arguments: [(440.0, nil as [Double]?), (660.0, nil), (660.0, [440, 660]), (880.0, nil)])
    func continuousTone(frequency: Double, candidates: [Double]?) {
        var tracker = ToneTracker(candidates: candidates)
        var source = SineToneSource(frequency: frequency)
        for _ in 0..<100 { tracker.append(source.nextFrame()) }  // 2 s of 20 ms frames
        #expect(tracker.frequency.map { abs($0 - frequency) <= 1 } == true, "read \(String(describing: tracker.frequency))")
        #expect(tracker.readingCount == 4)
    }

    @Test("Chromium's 20 ms beep every 500 ms is found wherever it falls in the period",
          arguments: [0, 137, 260, 480])
    func intermittentBeep(offsetMs: Int) {
        var tracker = ToneTracker()
        let audio = Self.beeps(frequency: 400, beepMs: 20, seconds: 4, offsetMs: offsetMs)
        for start in stride(from: 0, to: audio.count, by: 960) { tracker.append(Array(audio[start..<min(start + 960, audio.count)])) }
        #expect(tracker.frequency.map { abs($0 - 400) <= 10 } == true, "read \(String(describing: tracker.frequency))")
    }

    /// The beep keeps its phase against the 500 ms period for a whole call; wherever that phase
    /// is, including across the period's end, the window is centred on the beep, not on the
    /// ringing after it.
    @Test("a beep followed by low ringing is read as the beep at every phase, including across the period's end",
          arguments: [0, 5, 10, 15, 20, 30, 45, 60, 137, 260, 470, 490])
    func beepWithRingingAtEveryPhase(offsetMs: Int) {
        for candidates in [nil, [400.0, 60]] as [[Double]?] {
            var tracker = ToneTracker(candidates: candidates)
            let audio = Self.beeps(frequency: 400, beepMs: 20, seconds: 6, offsetMs: offsetMs, ringing: true)
            for start in stride(from: 0, to: audio.count, by: 960) { tracker.append(Array(audio[start..<min(start + 960, audio.count)])) }
            #expect(tracker.frequency.map { abs($0 - 400) <= 5 } == true,
                    "offset \(offsetMs) ms, candidates \(String(describing: candidates)): read \(String(describing: tracker.frequency))")
            #expect(tracker.readingCount >= 11)
        }
    }

    @Test("silence and faint noise read as no tone")
    func silenceIsNoTone() {
        var tracker = ToneTracker()
        tracker.append([Int16](repeating: 0, count: 48_000))
        tracker.append(Self.beeps(frequency: 400, beepMs: 0, seconds: 1))
        #expect(tracker.frequency == nil)
        #expect(tracker.readingCount == 0)
    }

    @Test("dominance: a tone filling the block scores near 1, loud white noise near 0")
    func dominanceMeasure() {
        var noise = SystemRandomNumberGenerator()
        let hiss = (0..<96_000).map { _ in Int16.random(in: -8_000...8_000, using: &noise) }   // about -16 dBFS
        var tone = SineToneSource(frequency: 440)
        let clean = (0..<10).flatMap { _ in tone.nextFrame() }
        #expect(ToneDetector.dominance(at: 440, in: clean) > 0.8)
        #expect(ToneDetector.dominance(at: 440, in: hiss) < 0.06)
    }

    @Test("a beep over a DC offset is still read as the beep, not as the offset's leakage into the lowest bins")
    func beepOverDCOffset() {
        var tracker = ToneTracker()
        let audio = Self.beeps(frequency: 400, beepMs: 20, seconds: 4).map { Int16(clamping: Int($0) + 3_000) }
        for start in stride(from: 0, to: audio.count, by: 960) { tracker.append(Array(audio[start..<min(start + 960, audio.count)])) }
        #expect(tracker.frequency.map { abs($0 - 400) <= 10 } == true, "read \(String(describing: tracker.frequency))")
    }

    @Test("a check that expects 440 Hz fails on silence: the tracker reads nothing")
    func silenceFailsAnExpectedTone() {
        var tracker = ToneTracker(candidates: [440, 660])
        tracker.append([Int16](repeating: 0, count: 96_000))
        #expect(tracker.frequency != 440)
        #expect(tracker.frequency == nil)
    }

    @Test("a period that caught a click does not move the median")
    func outlierPeriodIsOutvoted() {
        var tracker = ToneTracker()
        var source = SineToneSource(frequency: 440)
        for _ in 0..<75 { tracker.append(source.nextFrame()) }  // three periods of tone
        var click = [Int16](repeating: 0, count: 24_000)
        for i in 0..<48 { click[12_000 + i] = i.isMultiple(of: 2) ? 20_000 : -20_000 }
        tracker.append(click)
        for _ in 0..<25 { tracker.append(source.nextFrame()) }
        #expect(tracker.frequency == 440)
    }
}
