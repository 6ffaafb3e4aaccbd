#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Finds the frequency of a tone in decoded PCM, to check end to end that the
/// audio a peer receives is the tone the other peer sent (`SineToneSource`).
///
/// Uses the Goertzel algorithm (a single-bin DFT) over a Hann-windowed block:
/// a coarse scan in 10 Hz steps, then a 0.5 Hz scan around the best bin. A reading is a tone
/// only when it stands out of the spectrum around it (`standsOut`): noise, however loud, has no
/// tone.
public enum ToneDetector {
    /// How far a tone's power must stand above the median power of the frequencies around it
    /// (30 to 200 Hz away on either side: past its own main lobe, close enough that coloured
    /// noise is about as strong there). A tone in a block stands thousands of times above
    /// them, even Opus-coded, concealed or 20 ms long in a 100 ms block; in white noise the
    /// strongest of a scan's bins stands about 10 times above its neighbours' median, and 30
    /// times with a probability near 10⁻⁹ per bin.
    public static let minimumPeakToNeighbourhood = 30.0

    /// Power of `frequency` in `samples` (mono, Hann-windowed), in arbitrary units.
    public static func power(at frequency: Double, in samples: [Int16], sampleRate: Int = 48_000) -> Double {
        power(at: frequency, windowed: window(samples[...]), sampleRate: sampleRate)
    }

    /// The dominant frequency in `range` (Hz), to about ±1 Hz for a clean tone,
    /// or nil when the block is silent. Analyses at most `maxSamples` samples from the middle
    /// of `samples` (mono), which bounds the cost. The default range is 200–4,000 Hz, around
    /// the tones Tern checks (400–880 Hz): Chromium's received beep is followed by ~300 ms of
    /// decaying ~60 Hz ringing, which a block holding more ringing than beep would read; 200 Hz
    /// is 14 bins of a 100 ms block away from it, where a Hann window's leakage is gone.
    public static func dominantFrequency(in samples: [Int16], sampleRate: Int = 48_000,
                                         range: ClosedRange<Double> = 200...4_000,
                                         maxSamples: Int = 16_384) -> Double? {
        let take = min(samples.count, maxSamples)
        guard take >= 256 else { return nil }
        let start = (samples.count - take) / 2
        let block = window(samples[start..<(start + take)])
        guard block.contains(where: { abs($0) > 64 }) else { return nil }
        var best = range.lowerBound, bestPower = -1.0
        func scan(_ frequencies: [Double]) {
            for (f, p) in zip(frequencies, powers(at: frequencies, windowed: block, sampleRate: sampleRate)) where p > bestPower {
                (best, bestPower) = (f, p)
            }
        }
        scan(Array(stride(from: range.lowerBound, through: range.upperBound, by: 10)))
        guard standsOut(best, power: bestPower, windowed: block, sampleRate: sampleRate) else { return nil }
        scan(Array(stride(from: max(range.lowerBound, best - 10), through: min(range.upperBound, best + 10), by: 0.5)))
        return best
    }

    /// Which of `candidates` (Hz) carries the most power in `samples`; nil if `candidates` is
    /// empty or the strongest does not stand out as a tone (`standsOut`).
    public static func strongest(of candidates: [Double], in samples: [Int16], sampleRate: Int = 48_000) -> Double? {
        let block = window(samples[...])
        let readings = zip(candidates, powers(at: candidates, windowed: block, sampleRate: sampleRate))
        guard let (best, bestPower) = readings.max(by: { $0.1 < $1.1 }),
              standsOut(best, power: bestPower, windowed: block, sampleRate: sampleRate) else { return nil }
        return best
    }

    /// Whether `power` at `frequency` is `minimumPeakToNeighbourhood` times the median power
    /// 30–200 Hz away from it (10 Hz steps, both sides within 20 Hz … 20 kHz): a tone rather
    /// than the loudest spot of noise. A silent block has no tone either.
    static func standsOut(_ frequency: Double, power: Double, windowed block: [Double], sampleRate: Int) -> Bool {
        guard power > 0 else { return false }
        let neighbours = stride(from: 30.0, through: 200, by: 10).flatMap { [frequency - $0, frequency + $0] }
            .filter { $0 >= 20 && $0 <= 20_000 }
        var around = powers(at: neighbours, windowed: block, sampleRate: sampleRate)
        guard !around.isEmpty else { return false }
        around.sort()
        return power >= minimumPeakToNeighbourhood * around[around.count / 2]
    }

    /// How much of `samples`' energy sits at `frequency`: 1 for a pure tone filling the block
    /// (Hann window), near 0 for noise. A measure only: readings are gated on `standsOut`
    /// instead, since Chromium's 20 ms beep shares its 100 ms block with the ~60 Hz ringing that
    /// follows it, which holds most of the block's energy.
    public static func dominance(at frequency: Double, in samples: [Int16], sampleRate: Int = 48_000) -> Double {
        let block = window(samples[...])
        return dominance(power: power(at: frequency, windowed: block, sampleRate: sampleRate), windowed: block)
    }

    /// Goertzel power over (energy × N / 3), the power a pure tone of the block's energy gives
    /// under a Hann window (|X|² = (A·N/4)², energy = A²/2 · 3N/8).
    private static func dominance(power: Double, windowed block: [Double]) -> Double {
        let energy = block.reduce(0) { $0 + $1 * $1 }
        guard energy > 0, !block.isEmpty else { return 0 }
        return power / (energy * Double(block.count) / 3)
    }

    /// The block without its mean, Hann-windowed. The mean goes first: a DC offset (a
    /// decoder's, or a device's) would otherwise leak into the lowest bins through the window
    /// and count as energy no tone owns, so a beep would read as 50–60 Hz or not dominate.
    private static func window(_ samples: ArraySlice<Int16>) -> [Double] {
        let n = samples.count
        guard n > 1 else { return samples.map(Double.init) }
        let mean = samples.reduce(0.0) { $0 + Double($1) } / Double(n)
        var out = [Double](repeating: 0, count: n)
        for (i, sample) in samples.enumerated() {
            let w = 0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(n - 1))
            out[i] = (Double(sample) - mean) * w
        }
        return out
    }

    private static func power(at frequency: Double, windowed block: [Double], sampleRate: Int) -> Double {
        powers(at: [frequency], windowed: block, sampleRate: sampleRate)[0]
    }

    /// Goertzel power of each of `frequencies` in `block`, four frequencies per pass over the
    /// samples: a scan reads the block a quarter as often, and the loop runs on a raw pointer,
    /// which a debug build (the interop rig's `tern`, on the cooperative pool beside its call
    /// agent) runs several times faster than an iterator.
    static func powers(at frequencies: [Double], windowed block: [Double], sampleRate: Int) -> [Double] {
        let coefficients = frequencies.map { 2 * cos(2 * Double.pi * $0 / Double(sampleRate)) }
        var result = [Double](repeating: 0, count: coefficients.count)
        block.withUnsafeBufferPointer { buffer in
            guard let start = buffer.baseAddress else { return }
            let end = start + buffer.count
            var index = 0
            while index < coefficients.count {
                let c0 = coefficients[index]
                let c1 = index + 1 < coefficients.count ? coefficients[index + 1] : 0
                let c2 = index + 2 < coefficients.count ? coefficients[index + 2] : 0
                let c3 = index + 3 < coefficients.count ? coefficients[index + 3] : 0
                var (a1, a2, b1, b2, d1, d2, e1, e2) = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
                var p = start
                while p < end {
                    let x = p.pointee
                    let a0 = x + c0 * a1 - a2, b0 = x + c1 * b1 - b2
                    let d0 = x + c2 * d1 - d2, e0 = x + c3 * e1 - e2
                    (a2, a1, b2, b1, d2, d1, e2, e1) = (a1, a0, b1, b0, d1, d0, e1, e0)
                    p += 1
                }
                func finish(_ offset: Int, _ s1: Double, _ s2: Double, _ c: Double) {
                    if index + offset < coefficients.count { result[index + offset] = s1 * s1 + s2 * s2 - c * s1 * s2 }
                }
                finish(0, a1, a2, c0); finish(1, b1, b2, c1); finish(2, d1, d2, c2); finish(3, e1, e2, c3)
                index += 4
            }
        }
        return result
    }
}
