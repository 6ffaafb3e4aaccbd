// CPU cost of a call (issue #12, `call_cpu_per_second`): two Tern peers in two processes on
// loopback, each sending a 1280x720 test pattern at 30 fps through Tern's VP8 encoder and a tone
// through Opus, and receiving and decoding the other's, release build.
//
//   CallCPU parent [--seconds S] [--runs R] [--width W --height H] [--video-kbps K]
//   CallCPU child                (spawned by the parent; signals over its stdin/stdout)
//
// Each process measures its own CPU time (getrusage: user + system, every thread) over S seconds
// of media after an 8 s warm-up, and divides by S: CPU seconds per call-second for that side
// (1.0 = one core busy). Figure `call_cpu_per_second`: the median over both sides of every run;
// `call_cpu_per_second_caller` / `_callee` per side. Each side also logs the frames it decoded,
// so a run that carried no video shows. Nothing asserted. The warm-up covers the start of a
// call that ships with probing: it starts at 300 kbit/s, so the first seconds go at 640x360
// until the estimate has held room for 1280x720 for 5 s (Docs/CONGESTION.md); the figure is the
// 720p call's.
import BenchPeerSupport
import BenchSupport
import Foundation
import Synchronization
import TernMedia
import TernPeer
import TernSDP
#if canImport(Glibc)
import Glibc
#endif

struct Options {
    var seconds = choose(full: 30, quick: 10)
    var runs = choose(full: 2, quick: 1)
    var width = 1280
    var height = 720
    var videoKbps = 2500

    init(_ arguments: ArraySlice<String>) {
        var iterator = arguments.makeIterator()
        while let flag = iterator.next() {
            guard let text = iterator.next(), let value = Int(text), value > 0 else { fail("expected a number after \(flag)") }
            switch flag {
            case "--seconds": seconds = value
            case "--runs": runs = value
            case "--width": width = value
            case "--height": height = value
            case "--video-kbps": videoKbps = value
            default: fail("unknown option \(flag)")
            }
        }
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("CallCPU: \(message)\n".utf8))
    exit(1)
}

func log(_ message: String) {
    FileHandle.standardError.write(Data("CallCPU: \(message)\n".utf8))
}


/// One side of the call: a peer connection with an audio and a video transceiver, media pumped in
/// real time, remote frames drained (they are decoded on the transport's thread either way).
final class Side: Sendable {
    let pc: PeerConnection
    let audio: RTPTransceiver
    let video: RTPTransceiver
    let decoded = Atomic<Int>(0)

    init(videoKbps: Int) throws {
        var configuration = PeerConfiguration.loopback
        configuration.videoBitrateKbps = videoKbps
        pc = try PeerConnection(configuration: configuration)
        audio = try pc.addTransceiver(.audio, direction: .sendrecv)
        video = try pc.addTransceiver(.video, direction: .sendrecv)
    }

    /// Counts decoded video frames of every remote track as they arrive.
    func drain(_ track: RemoteTrack) {
        let isVideo = track.info.kind == .video
        Task {
            for await _ in track.frames where isVideo { decoded.add(1, ordering: .relaxed) }
        }
    }

    /// Sends 20 ms tone frames and 30 fps video until cancelled, on wall-clock time.
    func pump(width: Int, height: Int, toneHz: Double) -> Task<Void, Never> {
        let audio = audio.sender, video = video.sender
        return Task.detached {
            var tone = SineToneSource(frequency: toneHz)
            var pattern = TestPatternSource(width: width, height: height)
            let clock = ContinuousClock()
            let start = clock.now
            var audioFrames = 0, videoFrames = 0
            while !Task.isCancelled {
                let elapsed = clock.now - start
                while Duration.milliseconds(20) * audioFrames <= elapsed {
                    try? audio.send(audio: tone.nextFrame())
                    audioFrames += 1
                }
                while Duration.nanoseconds(33_333_333) * videoFrames <= elapsed {
                    try? video.send(video: pattern.nextFrame())
                    videoFrames += 1
                }
                try? await Task.sleep(for: .milliseconds(4))
            }
        }
    }

    /// Past the start-up at a lower resolution (see the header).
    static let warmUpSeconds = 8

    /// Waits for `connected`, then measures this process's CPU over `seconds` after a warm-up.
    func measure(seconds: Int) async -> Double {
        try? await Task.sleep(for: .seconds(Self.warmUpSeconds))
        let cpuStart = processCPUSeconds(), wallStart = wallSeconds()
        try? await Task.sleep(for: .seconds(seconds))
        return (processCPUSeconds() - cpuStart) / (wallSeconds() - wallStart)
    }
}

/// Forwards trickled candidates once the description they belong to went out.
func forwardCandidates(of pc: PeerConnection, to pipe: SignalPipe, after sent: Latch<Bool>,
                       tracks: @escaping @Sendable (RemoteTrack) -> Void, connected: Latch<Bool>) -> Task<Void, Never> {
    Task {
        for await event in pc.events {
            switch event {
            case let .iceCandidate(candidate):
                _ = await sent.wait()
                pipe.send(candidate.map { Signal(type: "candidate", candidate: $0) } ?? Signal(type: "end-of-candidates"))
            case let .track(track): tracks(track)
            case .connectionStateChanged(.connected): connected.resolve(true)
            default: break
            }
        }
    }
}

func parentRun(_ options: Options, run: Int) async throws -> (caller: Double, callee: Double) {
    let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    let toChild = Pipe(), fromChild = Pipe()
    let child = Process()
    child.executableURL = URL(fileURLWithPath: executable)
    child.arguments = ["child", String(options.seconds), String(options.width), String(options.height), String(options.videoKbps)]
    child.standardInput = toChild
    child.standardOutput = fromChild
    try child.run()
    let pipe = SignalPipe(readFD: fromChild.fileHandleForReading.fileDescriptor, writeFD: toChild.fileHandleForWriting.fileDescriptor)
    let side = try Side(videoKbps: options.videoKbps)
    let offerSent = Latch<Bool>(), connected = Latch<Bool>(), childDone = Latch<Signal>(), ready = Latch<Bool>()
    let events = forwardCandidates(of: side.pc, to: pipe, after: offerSent, tracks: { side.drain($0) }, connected: connected)
    let reader = Task {
        for await signal in pipe.incoming {
            switch signal.type {
            case "ready": ready.resolve(true)
            case "answer": try? await side.pc.setRemoteDescription(JSEPDescription(type: .answer, sdp: signal.sdp ?? ""))
            case "candidate": if let candidate = signal.candidate { try? await side.pc.addICECandidate(candidate) }
            case "end-of-candidates": try? await side.pc.addICECandidate(nil)
            case "done": childDone.resolve(signal)
            default: break
            }
        }
    }
    _ = await ready.wait()
    let offer = try await side.pc.createOffer()
    try await side.pc.setLocalDescription(offer)
    pipe.send(Signal(type: "offer", sdp: offer.sdp))
    offerSent.resolve(true)
    _ = await connected.wait()
    let pump = side.pump(width: options.width, height: options.height, toneHz: 440)
    let caller = await side.measure(seconds: options.seconds)
    let done = await childDone.wait()
    pump.cancel()
    log(String(format: "run %d: caller %.3f CPU s per call-second (%d frames decoded), callee %.3f (%d frames decoded)",
               run, caller, side.decoded.load(ordering: .relaxed), done.value ?? -1, done.messages ?? -1))
    pipe.send(Signal(type: "bye"))
    reader.cancel()
    events.cancel()
    side.pc.close()
    child.waitUntilExit()
    withExtendedLifetime((toChild, fromChild)) {}
    return (caller, done.value ?? .nan)
}

func childMain(_ arguments: ArraySlice<String>) async {
    let numbers = arguments.compactMap { Int($0) }
    guard numbers.count == 4 else { fail("child: expected seconds width height kbps") }
    let signalFD = dup(1)
    dup2(2, 1)
    let pipe = SignalPipe(readFD: 0, writeFD: signalFD)
    let side: Side
    do { side = try Side(videoKbps: numbers[3]) } catch { fail("child: \(error)") }
    let answerSent = Latch<Bool>(), connected = Latch<Bool>()
    let events = forwardCandidates(of: side.pc, to: pipe, after: answerSent, tracks: { side.drain($0) }, connected: connected)
    let measurement = Task {
        _ = await connected.wait()
        let pump = side.pump(width: numbers[1], height: numbers[2], toneHz: 660)
        let cpu = await side.measure(seconds: numbers[0])
        pipe.send(Signal(type: "done", messages: side.decoded.load(ordering: .relaxed), value: cpu))
        _ = pump  // keeps sending until the parent says bye
    }
    pipe.send(Signal(type: "ready"))
    for await signal in pipe.incoming {
        do {
            switch signal.type {
            case "offer":
                try await side.pc.setRemoteDescription(JSEPDescription(type: .offer, sdp: signal.sdp ?? ""))
                let answer = try await side.pc.createAnswer()
                try await side.pc.setLocalDescription(answer)
                pipe.send(Signal(type: "answer", sdp: answer.sdp))
                answerSent.resolve(true)
            case "candidate": if let candidate = signal.candidate { try await side.pc.addICECandidate(candidate) }
            case "end-of-candidates": try await side.pc.addICECandidate(nil)
            case "bye":
                measurement.cancel()
                events.cancel()
                side.pc.close()
                exit(0)
            default: break
            }
        } catch {
            fail("child: \(signal.type): \(error)")
        }
    }
}

signal(SIGPIPE, SIG_IGN)
let arguments = CommandLine.arguments.dropFirst()
switch arguments.first {
case "child":
    await childMain(arguments.dropFirst())
case "parent":
    let options = Options(arguments.dropFirst())
    var callers: [Double] = [], callees: [Double] = []
    for run in 1...options.runs {
        do {
            let (caller, callee) = try await parentRun(options, run: run)
            callers.append(caller)
            callees.append(callee)
        } catch {
            fail("run \(run): \(error)")
        }
    }
    Figure(name: "call_cpu_per_second", unit: "CPU s/s", samples: callers + callees).emit()
    Figure(name: "call_cpu_per_second_caller", unit: "CPU s/s", samples: callers).emit()
    Figure(name: "call_cpu_per_second_callee", unit: "CPU s/s", samples: callees).emit()
default:
    fail("usage: CallCPU parent [--seconds S] [--runs R] [--width W --height H] [--video-kbps K]")
}
