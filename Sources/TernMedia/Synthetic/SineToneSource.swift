#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// A synthetic audio source: a continuous sine tone as 20 ms frames of 48 kHz
/// Int16 PCM, e.g. 440 Hz for one peer and 660 Hz for the other, so that a
/// receiver can tell by frequency whose audio it decodes (see `ToneDetector`).
public struct SineToneSource: Sendable {
    /// Tone frequency in hertz.
    public let frequency: Double
    /// Peak amplitude as a fraction of full scale (0…1).
    public let amplitude: Double
    /// Channels per frame; stereo frames carry the same tone on both, interleaved.
    public let channels: OpusConfiguration.Channels
    /// Samples per channel produced so far; the phase continues across frames.
    public private(set) var samplesProduced = 0

    /// A tone source. `amplitude` is clamped to 0…1.
    public init(frequency: Double, amplitude: Double = 0.3, channels: OpusConfiguration.Channels = .mono) {
        self.frequency = frequency
        self.amplitude = min(max(amplitude, 0), 1)
        self.channels = channels
    }

    /// The next 20 ms frame: 960 samples per channel, interleaved.
    public mutating func nextFrame() -> [Int16] {
        let count = OpusConfiguration.samplesPerFrame
        let channelCount = channels.rawValue
        let step = 2 * Double.pi * frequency / Double(OpusConfiguration.sampleRate)
        let scale = amplitude * Double(Int16.max)
        var pcm = [Int16](repeating: 0, count: count * channelCount)
        for index in 0..<count {
            // Reduce the phase modulo 2π from an integer sample index so it stays exact over hours.
            let n = (samplesProduced + index) % OpusConfiguration.sampleRate
            let sample = Int16(clamping: Int((sin(step * Double(n)) * scale).rounded()))
            for channel in 0..<channelCount { pcm[index * channelCount + channel] = sample }
        }
        samplesProduced += count
        return pcm
    }
}
