/// Follows the tone in a stream of decoded audio, for checks that run through a whole call:
/// a continuous test tone (`SineToneSource`), or a beep that sounds only now and then —
/// Chromium's fake microphone plays 20 ms of 400 Hz every 500 ms, and a detector that looks at
/// whatever the last half second holds reads silence or noise in most windows.
///
/// The audio is cut into periods of `periodSamples`. In each, the loudest 20 ms frame is found
/// and the 100 ms centred on it are analysed (`ToneDetector`), if that frame is loud enough to be
/// a tone at all; one reading per period. The window always has the frame at its centre: a frame
/// too close to the period's end to be centred is read in the next period, which sees the last
/// 100 ms of this one. (Chromium's beep keeps its phase against a 500 ms period for a whole call,
/// and is followed by ~300 ms of decaying ~60 Hz ringing; a window clamped into the period would
/// keep a beep at its edge, where the Hann window mutes it, and read the ringing in every period.)
/// `frequency` is the median of the recent readings, so a period that caught concealment noise
/// or a click does not move it. Sans-I/O: PCM in, values out.
public struct ToneTracker: Sendable {
    /// Mono samples per second.
    public let sampleRate: Int
    /// The tones the sender may use, if known: each reading picks the strongest of them
    /// (cheaper and exact); nil scans 50 Hz … 4 kHz.
    public let candidates: [Double]?
    /// Samples per period: one reading each (500 ms by default).
    public let periodSamples: Int
    /// RMS (of full scale 1) a 20 ms frame needs to count as sound (default -40 dBFS).
    public let minimumLevel: Double
    /// Readings kept for the median (20: the last ten seconds).
    public let historyLength: Int

    /// The last `window` samples of the previous period, then the current period's.
    private var period: [Int16] = []
    /// How many samples at the start of `period` are carried over from the previous one.
    private var carried = 0
    private var recent: [Double] = []
    /// Periods so far that held a tone.
    public private(set) var readingCount = 0

    /// A tracker; the defaults suit 48 kHz mono test tones.
    public init(sampleRate: Int = 48_000, candidates: [Double]? = nil, periodSamples: Int = 24_000,
                minimumLevel: Double = 0.01, historyLength: Int = 20) {
        self.sampleRate = sampleRate
        self.candidates = candidates
        self.periodSamples = max(periodSamples, sampleRate / 10)
        self.minimumLevel = minimumLevel
        self.historyLength = max(1, historyLength)
        period.reserveCapacity(self.periodSamples + sampleRate / 10)
    }

    /// The tone heard lately: the median of the recent readings, to the nearest hertz; nil
    /// until a period held a tone.
    public var frequency: Double? {
        guard !recent.isEmpty else { return nil }
        let sorted = recent.sorted()
        return sorted[sorted.count / 2].rounded()
    }

    /// The newest reading, if the last period held a tone.
    public private(set) var latest: Double?

    /// Adds decoded mono samples.
    public mutating func append(_ samples: [Int16]) {
        var index = 0
        while index < samples.count {
            let take = min(carried + periodSamples - period.count, samples.count - index)
            period.append(contentsOf: samples[index..<(index + take)])
            index += take
            if period.count == carried + periodSamples { finishPeriod() }
        }
    }

    private mutating func finishPeriod() {
        let frame = sampleRate / 50  // 20 ms
        let window = sampleRate / 10  // 100 ms
        defer {
            // Keep the last `window` samples: a frame centred in them is read next period.
            let keep = min(window, period.count)
            period.removeFirst(period.count - keep)
            carried = keep
        }
        // Frames whose centred window fits in what is held: centres from `carried - window / 2`
        // to `period.count - window / 2`, so each instant after the first 50 ms of audio is a
        // candidate in exactly one period.
        var loudest = -1, loudestEnergy = 0.0
        var centre = max(window / 2, carried - window / 2)
        while centre + window / 2 <= period.count {
            var energy = 0.0
            for sample in period[(centre - frame / 2)..<(centre + frame / 2)] { energy += Double(sample) * Double(sample) }
            if energy > loudestEnergy { (loudest, loudestEnergy) = (centre, energy) }
            centre += frame / 2
        }
        let rms = (loudestEnergy / Double(frame)).squareRoot() / Double(Int16.max)
        guard loudest >= 0, rms >= minimumLevel else {
            latest = nil
            return
        }
        let block = Array(period[(loudest - window / 2)..<(loudest + window / 2)])
        let reading: Double?
        if let candidates {
            reading = ToneDetector.strongest(of: candidates, in: block, sampleRate: sampleRate)
        } else {
            reading = ToneDetector.dominantFrequency(in: block, sampleRate: sampleRate)
        }
        latest = reading
        guard let reading else { return }
        readingCount += 1
        recent.append(reading)
        if recent.count > historyLength { recent.removeFirst(recent.count - historyLength) }
    }
}
