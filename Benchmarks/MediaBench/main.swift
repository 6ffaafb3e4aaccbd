// Codec wrapper speeds (release build, run by Scripts/bench; printed, never asserted).
//
// - VP8 640x480 test pattern, cpu-used 8, real time, 1 thread, 1500 kb/s: frames per second of
//   wall-clock time through VP8Encoder, then the same frames through VP8Decoder.
// - Opus 48 kHz mono, 20 ms frames, 32 kb/s, in-band FEC, complexity 9 (OpusConfiguration's
//   defaults): seconds of audio per second of wall-clock time (realtime factor).
// Each run uses a fresh encoder and decoder; the figure is the median over runs.
import BenchSupport
import TernMedia

let runs = choose(full: 5, quick: 3)

let videoFrames = choose(full: 300, quick: 120)
var pattern = TestPatternSource(width: 640, height: 480)
let pictures = (0..<videoFrames).map { _ in pattern.nextFrame() }
var encodeFPS: [Double] = [], decodeFPS: [Double] = []
for _ in 0..<runs {
    let encoder = try VP8Encoder(configuration: VP8EncoderConfiguration(width: 640, height: 480, bitrateKbps: 1_500))
    let decoder = try VP8Decoder()
    var encoded: [EncodedVideoFrame] = []
    encoded.reserveCapacity(videoFrames)
    let encodeStart = wallSeconds()
    for picture in pictures { if let frame = try encoder.encode(picture) { encoded.append(frame) } }
    let encodeSeconds = wallSeconds() - encodeStart
    var decoded = 0
    let decodeStart = wallSeconds()
    for frame in encoded where try decoder.decode(frame) != nil { decoded += 1 }
    let decodeSeconds = wallSeconds() - decodeStart
    guard decoded > 0 else { fatalError("MediaBench: VP8 decoded no frame") }
    encodeFPS.append(Double(videoFrames) / encodeSeconds)
    decodeFPS.append(Double(decoded) / decodeSeconds)
}
Figure(name: "vp8_640x480_encode_fps", unit: "fps", samples: encodeFPS).emit()
Figure(name: "vp8_640x480_decode_fps", unit: "fps", samples: decodeFPS).emit()

let audioFrames = choose(full: 3_000, quick: 1_000)  // 60 s / 20 s of 20 ms frames
var tone = SineToneSource(frequency: 440)
let pcm = (0..<audioFrames).map { _ in tone.nextFrame() }
let audioSeconds = Double(audioFrames) * 0.02
var encodeFactor: [Double] = [], decodeFactor: [Double] = []
for _ in 0..<runs {
    let encoder = try OpusAudioEncoder()
    let decoder = try OpusAudioDecoder()
    var packets: [[UInt8]] = []
    packets.reserveCapacity(audioFrames)
    let encodeStart = wallSeconds()
    for frame in pcm { packets.append(try encoder.encode(frame).data) }
    let encodeSeconds = wallSeconds() - encodeStart
    var samples = 0
    let decodeStart = wallSeconds()
    for packet in packets { samples += try decoder.decode(packet).count }
    let decodeSeconds = wallSeconds() - decodeStart
    guard samples == audioFrames * 960 else { fatalError("MediaBench: Opus decoded \(samples) samples, expected \(audioFrames * 960)") }
    encodeFactor.append(audioSeconds / encodeSeconds)
    decodeFactor.append(audioSeconds / decodeSeconds)
}
Figure(name: "opus_encode_realtime_x", unit: "x realtime", samples: encodeFactor).emit()
Figure(name: "opus_decode_realtime_x", unit: "x realtime", samples: decodeFactor).emit()
