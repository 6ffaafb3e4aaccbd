#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Finds the frequency of a tone in decoded PCM, to check end to end that the
/// audio a peer receives is the tone the other peer sent (`SineToneSource`).
///
/// Uses the Goertzel algorithm (a single-bin DFT) over a Hann-windowed block:
/// a coarse scan in 10 Hz steps, then a 0.5 Hz scan around the best bin.
public enum ToneDetector {
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
        var f = range.lowerBound
        while f <= range.upperBound {
            let p = power(at: f, windowed: block, sampleRate: sampleRate)
            if p > bestPower { (best, bestPower) = (f, p) }
            f += 10
        }
        let coarse = best
        f = max(range.lowerBound, coarse - 10)
        while f <= min(range.upperBound, coarse + 10) {
            let p = power(at: f, windowed: block, sampleRate: sampleRate)
            if p > bestPower { (best, bestPower) = (f, p) }
            f += 0.5
        }
        return best
    }

    /// Which of `candidates` (Hz) carries the most power in `samples`; nil if `candidates` is empty.
    public static func strongest(of candidates: [Double], in samples: [Int16], sampleRate: Int = 48_000) -> Double? {
        let block = window(samples[...])
        return candidates.max { power(at: $0, windowed: block, sampleRate: sampleRate)
            < power(at: $1, windowed: block, sampleRate: sampleRate) }
    }

    /// How much of `samples`' energy sits at `frequency`: 1 for a pure tone filling the block
    /// (Hann window), near 0 for noise. A measure only: readings are not gated on it, since
    /// Chromium's 20 ms beep shares its 100 ms block with the ringing that follows it.
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
        let coefficient = 2 * cos(2 * Double.pi * frequency / Double(sampleRate))
        var s1 = 0.0, s2 = 0.0
        block.withUnsafeBufferPointer { buffer in
            for x in buffer {
                let s0 = x + coefficient * s1 - s2
                s2 = s1
                s1 = s0
            }
        }
        return s1 * s1 + s2 * s2 - coefficient * s1 * s2
    }
}
