// Data-channel throughput and set-up latency between two Tern peers in two processes on
// loopback (issues #7 and #12), release build, DTLS and ICE (libnice) included.
//
//   DCThroughput parent [--bytes N] [--message-size S] [--runs R] [--warm-up W] [--high B] [--low B]
//                       [--candidate-pool] (iceCandidatePoolSize 1 on both sides)
//                       [--audio] [--audio-figure NAME] (default setup_ms_audio)
//                       [--throughput-figure NAME]  (default dc_throughput_loopback_MBps; a name
//                       ending in _Mbps reports Mbit/s) [--setup-figure NAME] (default setup_ms;
//                       `none` leaves the set-up figure out)
//   DCThroughput child             (spawned by the parent; signals over its stdin/stdout)
//
// One child process serves every run; each run creates a fresh PeerConnection in both processes
// (the child makes its next one, then says `ready`), so a run measures what every call of a
// long-running program costs. The first run of a fresh process pair also pays for one-time work
// (Swift metadata, libsrtp's initialisation); --warm-up W leaves the first W runs out of the
// figures (Scripts/bench reports those first connections as their own row). The two exchange offer/answer and trickled candidates as JSON lines over the child's pipes.
// The parent (offerer) opens one reliable ordered channel and, once it is open on both sides,
// sends N bytes (default 64 MiB) in S-byte binary messages (default 64 KiB), keeping
// bufferedAmount under --high (default 4 MiB) and waiting for the bufferedAmountLow event
// (threshold --low, default 1 MiB). The child reports the CLOCK_MONOTONIC time of the last byte.
//
// With --audio the offerer also sends a 440 Hz tone, 20 ms Opus frames on a clock that starts at
// createOffer (frames before the transport is up are dropped, as a browser drops them), and
// setup_ms_audio ends at the later of both channels open and the answerer's first decoded frame.
//
// Figures (BenchSupport JSON lines, median over the runs, min/max as the spread):
//   dc_throughput_loopback_MBps  N / (child's last byte − parent's first send), 10^6 bytes/s
//   setup_ms                     parent's createOffer → channel open on both sides (the later
//                                of the two open times; CLOCK_MONOTONIC is shared by processes)
// Benchmarks/aiortc/dc_throughput.py measures aiortc ↔ aiortc the same way. Nothing asserted.
//
// Across the network lab (Scripts/bench's 50 ms-RTT row): DCBENCH_ICE_ADDRESS=A keeps this
// process's host candidates on address A (default 127.0.0.1), and DCBENCH_CHILD_WRAPPER is a
// command prefix the child is started under (e.g. `netlab exec right env DCBENCH_ICE_ADDRESS=B`),
// so parent and child sit in two namespaces with the lab's router between them.
// DCBENCH_CHILD_COMMAND=CMD starts CMD as the child instead (a whole command: aiortc's
// `dc_throughput.py child` or Benchmarks/chromium/dc_bridge.py), for the cross rows where Tern
// offers and sends to another stack.
//
// Signaling follows JSEP order and W3C's example: each side sends its localDescription once
// setLocalDescription has applied it (with the candidates gathered by then, as W3C specifies) and
// forwards its trickled candidates only after that. DCBENCH_TRACE=1 prints the
// signals, every peer event (with CLOCK_MONOTONIC ms) and, once a second, SCTP counters seen by a
// packet tap (DATA sent / retransmitted, SACKs with gap blocks) on stderr. DCBENCH_CWND=1 logs the
// sender's congestion window, ssthresh, flight size and phase every 50 ms of a transfer.
import BenchPeerSupport
import BenchSupport
import Foundation
import Synchronization
import TernICE
import TernMedia
import TernPeer
import TernSCTP
import TernSDP
#if canImport(Glibc)
import Glibc
#endif

struct Options {
    var bytes = 64 * 1024 * 1024
    var messageSize = 64 * 1024
    var runs = choose(full: 5, quick: 3)
    var warmUp = 0
    var high = 4 * 1024 * 1024
    var low = 1024 * 1024
    var throughputFigure = "dc_throughput_loopback_MBps"
    var setupFigure = "setup_ms"
    /// With --audio: the offerer also sends a tone, and a run ends at the answerer's first
    /// decoded audio frame too (figure --audio-figure, default setup_ms_audio).
    var audio = false
    var audioFigure = "setup_ms_audio"

    init(_ arguments: ArraySlice<String>) {
        var iterator = arguments.makeIterator()
        while let flag = iterator.next() {
            if flag == "--audio" { audio = true; continue }
            if flag == "--candidate-pool" {
                // Both processes read it (the child inherits the environment).
                setenv("DCBENCH_POOL", "1", 1)
                continue
            }
            if flag == "--audio-figure", let name = iterator.next() { audioFigure = name; continue }
            if flag == "--throughput-figure" || flag == "--setup-figure", let name = iterator.next() {
                if flag == "--setup-figure" { setupFigure = name } else { throughputFigure = name }
                continue
            }
            guard let text = iterator.next(), let value = Int(text), value >= 0 else {
                fail("expected a number after \(flag)")
            }
            switch flag {
            case "--bytes": bytes = value
            case "--message-size": messageSize = max(1, value)
            case "--runs": runs = max(1, value)
            case "--warm-up": warmUp = value
            case "--high": high = value
            case "--low": low = value
            default: fail("unknown option \(flag)")
            }
        }
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("DCThroughput: \(message)\n".utf8))
    exit(1)
}

let tracing = ProcessInfo.processInfo.environment["DCBENCH_TRACE"] != nil
/// DCBENCH_TRACE=buffered keeps the lines in memory until the run is over (`flushTrace`): writing
/// them to stderr while a set-up runs wakes threads and shifts its timing.
let bufferedTrace = Mutex<[String]?>(ProcessInfo.processInfo.environment["DCBENCH_TRACE"] == "buffered" ? [] : nil)

/// Progress on stderr with DCBENCH_TRACE=1.
func trace(_ message: @autoclosure () -> String) {
    guard tracing else { return }
    let line = String(format: "%.3f ms ", wallSeconds() * 1000) + "[\(getpid())] \(message())"
    let kept = bufferedTrace.withLock { lines -> Bool in
        guard lines != nil else { return false }
        lines?.append(line)
        return true
    }
    if !kept { log(line) }
}

/// Writes what DCBENCH_TRACE=buffered held back.
func flushTrace() {
    let lines = bufferedTrace.withLock { lines -> [String] in
        defer { if lines != nil { lines = [] } }
        return lines ?? []
    }
    for line in lines { log(line) }
}

/// A short, cheap description of a peer event for the trace (string interpolation of the whole
/// event goes through reflection and would slow the set-up being measured).
func label(_ event: PeerConnectionEvent) -> String {
    switch event {
    case let .iceCandidate(candidate): candidate == nil ? "end-of-candidates" : "candidate"
    case let .iceGatheringStateChanged(state): "gathering \(state.rawValue)"
    case let .iceConnectionStateChanged(state): "ice \(state.rawValue)"
    case let .connectionStateChanged(state): "connection \(state.rawValue)"
    case let .signalingStateChanged(state): "signaling \(state.rawValue)"
    case .selectedCandidatePairChanged: "selected pair"
    case .dtlsConnected: "dtls connected"
    case .dtlsFailed: "dtls failed"
    case .negotiationNeeded: "negotiation needed"
    case .dataChannel: "data channel"
    case .track: "track"
    }
}

func log(_ message: String) {
    FileHandle.standardError.write(Data("DCThroughput: \(message)\n".utf8))
}

/// Ends the process if a run does not finish in time (a stalled association must not hang
/// the benchmark script; Scripts/bench also applies its own limit).
func armWatchdog(seconds: Int, run: Int) -> DispatchWorkItem {
    let item = DispatchWorkItem { fail("run \(run) did not finish within \(seconds) s") }
    DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(seconds), execute: item)
    return item
}

/// With a candidate pool, waits until the connection has gathered (an application that uses a
/// pool creates the connection ahead of the call), so a run measures the call, not the pool.
func awaitPool(_ pc: PeerConnection) async {
    guard pc.configuration.iceCandidatePoolSize > 0 else { return }
    for _ in 0..<2_000 {
        if pc.iceTrace?.entries.contains(where: { if case .gatheringComplete = $0.event { true } else { false } }) == true { return }
        try? await Task.sleep(for: .milliseconds(1))
    }
}

/// Both processes' configuration: `PeerConfiguration.loopback` (Ta = 1 ms, aggressive
/// nomination). DCBENCH_ICE_ADDRESS (the network lab) moves ICE to that address and back to the
/// default 5 ms pacing and regular nomination, which DCBENCH_STUN_PACING_MS=N and
/// DCBENCH_NOMINATION=regular|aggressive override; DCBENCH_POOL=N sets iceCandidatePoolSize;
/// DCBENCH_SCTP_MAX_PACKET=N caps the SCTP packet size path MTU discovery may reach (1200 turns
/// discovery off: every packet 1,200 bytes).
///
/// DCBENCH_PROFILE=defaults is what an application ships with: `ICEConfiguration`'s defaults
/// (5 ms pacing, regular nomination) on 127.0.0.1 and no Tern↔Tern extensions, so two Tern
/// processes do what two standard stacks do (the headline rows). The Tern↔Tern extensions are
/// the SCTP ones (`offersTernExtensions`) and DTLS in the ICE checks (`negotiatesDTLSInChecks`):
/// both Tern's own wire formats, which no other stack speaks. DCBENCH_EXTENSIONS=1 offers them
/// on top of whichever profile; DCBENCH_DTLS_IN_CHECKS=0/1 then sets DTLS in the checks alone. DCBENCH_SNAP=0 turns SNAP off (it is on by
/// default, as `PeerConfiguration` ships), to measure the SCTP handshake it saves.
/// DCBENCH_VALID_PAIR=0 keeps data (DTLS) waiting for ICE's selected pair, as with a libnice
/// without Tern's patch (`ICEConfiguration.sendsOnValidPairs`); DCBENCH_FIRST_CHECK=0 waits one
/// Ta before the first check, as stock libnice does (`ICEConfiguration.firstCheckAtOnce`).
func benchConfiguration() -> PeerConfiguration {
    var configuration = PeerConfiguration.loopback
    let environment = ProcessInfo.processInfo.environment
    if environment["DCBENCH_PROFILE"] == "defaults" {
        configuration.ice.stunPacing = ICEConfiguration().stunPacing
        configuration.ice.nomination = ICEConfiguration().nomination
        configuration.offersTernExtensions = false
        configuration.negotiatesDTLSInChecks = false
    }
    if let flag = environment["DCBENCH_EXTENSIONS"] {
        configuration.offersTernExtensions = flag == "1"
        configuration.negotiatesDTLSInChecks = flag == "1"
    }
    if let flag = environment["DCBENCH_DTLS_IN_CHECKS"] { configuration.negotiatesDTLSInChecks = flag == "1" }
    if let flag = environment["DCBENCH_SNAP"] { configuration.negotiatesSNAP = flag == "1" }
    if let flag = environment["DCBENCH_VALID_PAIR"] { configuration.ice.sendsOnValidPairs = flag == "1" }
    if let flag = environment["DCBENCH_FIRST_CHECK"] { configuration.ice.firstCheckAtOnce = flag == "1" }
    if let address = ProcessInfo.processInfo.environment["DCBENCH_ICE_ADDRESS"] {
        configuration.ice.allowedAddresses = [address]
        configuration.ice.stunPacing = ICEConfiguration().stunPacing
        configuration.ice.nomination = ICEConfiguration().nomination
    }
    if let text = ProcessInfo.processInfo.environment["DCBENCH_NOMINATION"], let nomination = ICENomination(rawValue: text) {
        configuration.ice.nomination = nomination
    }
    if let text = ProcessInfo.processInfo.environment["DCBENCH_POOL"], let size = Int(text) {
        configuration.iceCandidatePoolSize = size
    }
    if let text = ProcessInfo.processInfo.environment["DCBENCH_STUN_PACING_MS"], let milliseconds = Int(text) {
        configuration.ice.stunPacing = .milliseconds(milliseconds)
    }
    if let text = ProcessInfo.processInfo.environment["DCBENCH_SCTP_MAX_PACKET"], let size = Int(text) {
        configuration.sctp.maximumPacketSize = size
        configuration.sctp.pathMTUDiscovery = size > configuration.sctp.mtu
    }
    return configuration
}

// MARK: - Parent (offerer, sender)

/// The child process, spawned once for all runs, and the signals it sends, handed to the run in
/// progress. Signals that arrive between runs (the child's `ready` for the next one) wait in a
/// queue until the next run asks for its stream.
final class ChildProcess: @unchecked Sendable {  // Process and Pipe are only touched by init and finish
    let pipe: SignalPipe
    private let process = Process()
    private let toChild = Pipe(), fromChild = Pipe()
    private struct Route {
        var current: AsyncStream<Signal>.Continuation?
        var queued: [Signal] = []
    }
    private let route = Mutex(Route())
    private let ending = Flag()

    init() throws {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let environment = ProcessInfo.processInfo.environment
        let wrapper = environment["DCBENCH_CHILD_WRAPPER"]?.split(separator: " ").map(String.init) ?? []
        // DCBENCH_CHILD_COMMAND: another stack's child speaking the same signals (aiortc's
        // dc_throughput.py child, Benchmarks/chromium/dc_bridge.py) answers instead of ours.
        if let command = environment["DCBENCH_CHILD_COMMAND"]?.split(separator: " ").map(String.init),
           let first = command.first {
            process.executableURL = URL(fileURLWithPath: first)
            process.arguments = Array(command.dropFirst())
        } else if let first = wrapper.first {
            process.executableURL = URL(fileURLWithPath: first)
            process.arguments = Array(wrapper.dropFirst()) + [executable, "child"]
        } else {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = ["child"]
        }
        process.standardInput = toChild
        process.standardOutput = fromChild
        try process.run()
        pipe = SignalPipe(readFD: fromChild.fileHandleForReading.fileDescriptor,
                          writeFD: toChild.fileHandleForWriting.fileDescriptor)
        Task { [self] in
            for await signal in pipe.incoming {
                route.withLock { r in
                    if let current = r.current { current.yield(signal) } else { r.queued.append(signal) }
                }
            }
            if !ending.isSet { fail("the child process ended early (its stderr above says why)") }
        }
    }

    /// The signals of one run, from now until `endRun`.
    func beginRun() -> AsyncStream<Signal> {
        let (stream, continuation) = AsyncStream.makeStream(of: Signal.self, bufferingPolicy: .unbounded)
        route.withLock { r in
            for signal in r.queued { continuation.yield(signal) }
            r.queued = []
            r.current = continuation
        }
        return stream
    }

    /// Later signals wait for the next run.
    func endRun() {
        route.withLock { r in
            r.current?.finish()
            r.current = nil
        }
    }

    func finish() {
        ending.set()
        pipe.send(Signal(type: "exit"))
        process.waitUntilExit()
    }
}

struct RunResult {
    var setupMs: Double
    var throughputMBps: Double?
    var audioSetupMs: Double?
}

func parentRun(_ options: Options, run: Int, child: ChildProcess) async throws -> RunResult {
    let watchdog = armWatchdog(seconds: 180, run: run)
    defer { watchdog.cancel() }
    let pipe = child.pipe
    let signals = child.beginRun()

    var configuration = benchConfiguration()
    let sctpTrace = SCTPTrace()
    if tracing { sctpTrace.install(into: &configuration) }
    let pc = try PeerConnection(configuration: configuration)
    let channel = try pc.createDataChannel("bench", options: DataChannelInit(ordered: true))
    channel.bufferedAmountLowThreshold = options.low
    if tracing { sctpTrace.startReporting("parent run \(run)") { "bufferedAmount \(channel.bufferedAmount)" } }
    let audio = options.audio ? try pc.addTransceiver(.audio, direction: .sendonly).sender : nil

    let ready = Latch<Bool>(), offerSent = Latch<Bool>(), childOpen = Latch<Double>(), done = Latch<Signal>()
    let childAudio = Latch<Double>()
    let candidates = Task {
        for await event in pc.events {
            trace("parent event \(label(event))")
            if case let .iceCandidate(candidate) = event {
                _ = await offerSent.wait()  // a candidate is useless to the child before the offer
                pipe.send(candidate.map { Signal(type: "candidate", candidate: $0) } ?? Signal(type: "end-of-candidates"))
            }
        }
    }
    // Signals are applied in arrival order: the answer before the candidates that follow it.
    let reader = Task {
        for await signal in signals {
            trace("parent got \(signal.type)")
            switch signal.type {
            case "ready": ready.resolve(true)
            case "answer":
                do { try await pc.setRemoteDescription(JSEPDescription(type: .answer, sdp: signal.sdp ?? "")) } catch {
                    fail("setRemoteDescription(answer): \(error)")
                }
            case "candidate": if let candidate = signal.candidate { try? await pc.addICECandidate(candidate) }
            case "end-of-candidates": try? await pc.addICECandidate(nil)
            case "open": childOpen.resolve(signal.time ?? 0)
            case "audio": childAudio.resolve(signal.time ?? 0)
            case "done": done.resolve(signal)
            default: break
            }
        }
    }
    _ = await ready.wait()
    await awaitPool(pc)

    // Set-up: createOffer → open on both sides.
    let setupStart = wallSeconds()
    trace("createOffer")
    // A capture clock that runs from the start, as a microphone would: a 20 ms tone frame every
    // 20 ms (frames before the transport is up are dropped by the sender).
    let pump = audio.map { sender in
        Task.detached {
            var tone = SineToneSource(frequency: 440)
            let clock = ContinuousClock(), start = clock.now
            var frames = 0
            while !Task.isCancelled {
                while Duration.milliseconds(20) * frames <= clock.now - start {
                    try? sender.send(audio: tone.nextFrame())
                    frames += 1
                }
                try? await Task.sleep(until: start + .milliseconds(20) * frames, clock: clock)
            }
        }
    }
    defer { pump?.cancel() }
    // JSEP order: the offer goes out once applied, so the answer cannot race setLocalDescription.
    let offer = try await pc.createOffer()
    try await pc.setLocalDescription(offer)
    // W3C's pattern: signal localDescription, which carries the candidates gathered so far.
    var offerSignal = Signal(type: "offer", sdp: pc.localDescription?.sdp ?? offer.sdp)
    offerSignal.bytes = options.bytes
    pipe.send(offerSignal)
    offerSent.resolve(true)
    var events = channel.events.makeAsyncIterator()
    opening: while let event = await events.next() {
        switch event {
        case .open: break opening
        case let .closed(reason): fail("channel closed before opening: \(reason ?? "no reason")")
        default: continue
        }
    }
    let parentOpened = wallSeconds()
    trace("parent channel open")
    let childOpened = await childOpen.wait()
    let setupMs = (max(parentOpened, childOpened) - setupStart) * 1000
    var audioSetupMs: Double?
    if audio != nil {
        let firstAudio = await childAudio.wait()
        audioSetupMs = (max(parentOpened, childOpened, firstAudio) - setupStart) * 1000
    }
    if ProcessInfo.processInfo.environment["DCBENCH_MARKS"] != nil {
        log(String(format: "window %.6f %.6f", setupStart, max(parentOpened, childOpened)))
    }

    // Throughput: send, keeping bufferedAmount under `high`.
    var throughput: Double?
    let congestionLog = ProcessInfo.processInfo.environment["DCBENCH_CWND"] != nil && options.bytes > 0
        ? logCongestion(of: pc, every: .milliseconds(50)) : nil
    defer { congestionLog?.cancel() }
    if options.bytes > 0 {
        let message = DataChannelMessage.binary([UInt8](repeating: 0xAB, count: options.messageSize))
        let start = wallSeconds()
        var sent = 0
        sending: while sent < options.bytes {
            while sent < options.bytes, channel.bufferedAmount <= options.high {
                let size = min(options.messageSize, options.bytes - sent)
                try channel.send(size == options.messageSize ? message : .binary([UInt8](repeating: 0xAB, count: size)))
                sent += size
            }
            guard sent < options.bytes else { break }
            while let event = await events.next() {
                switch event {
                case .bufferedAmountLow: continue sending
                case let .closed(reason): fail("channel closed while sending: \(reason ?? "no reason")")
                default: continue
                }
            }
        }
        let result = await done.wait()
        let last = result.time ?? 0
        if result.bytes != options.bytes { fail("the child received \(result.bytes ?? 0) bytes, not \(options.bytes)") }
        throughput = Double(options.bytes) / (last - start) / 1e6
        log(String(format: "run %d: set-up %.1f ms, %d bytes in %d messages in %.3f s: %.1f MB/s",
                   run, setupMs, options.bytes, result.messages ?? 0, last - start, throughput ?? 0))
    } else if let audioSetupMs {
        log(String(format: "run %d: set-up %.1f ms, with the first decoded audio frame %.1f ms", run, setupMs, audioSetupMs))
    } else {
        log(String(format: "run %d: set-up %.1f ms", run, setupMs))
    }

    child.endRun()
    pipe.send(Signal(type: "bye"))
    flushTrace()
    reader.cancel()
    candidates.cancel()
    pc.close()
    return RunResult(setupMs: setupMs, throughputMBps: throughput, audioSetupMs: audioSetupMs)
}

/// DCBENCH_CWND=1: the sender's congestion state (getStats' sctp-transport entry) every
/// `interval` on stderr while a transfer runs — how the window ramps up, where slow start ends,
/// each loss and timeout.
func logCongestion(of pc: PeerConnection, every interval: Duration) -> Task<Void, Never> {
    Task.detached {
        let start = wallSeconds()
        while !Task.isCancelled {
            if let sctp = pc.getStats().sctpTransport {
                log(String(format: "cwnd t=%.3f s cwnd %d ssthresh %d flight %d rwnd %d srtt %.1f ms mtu %d %@ "
                           + "retransmitted %d fast-recoveries %d timeouts %d hystart-exits %d",
                           wallSeconds() - start, sctp.congestionWindow, sctp.slowStartThreshold ?? -1, sctp.bytesInFlight,
                           sctp.receiverWindow, (sctp.smoothedRoundTripTime ?? -0.001) * 1000, sctp.mtu, sctp.congestionPhase,
                           sctp.retransmittedChunks, sctp.fastRecoveries, sctp.retransmissionTimeouts, sctp.slowStartExitsOnDelay))
            }
            try? await Task.sleep(for: interval)
        }
    }
}

// MARK: - Child (answerer, receiver)

/// One run's answering peer connection in the child.
final class ChildRun: Sendable {
    let pc: PeerConnection
    let expected = Latch<Int>(), answerSent = Latch<Bool>()
    private let watcher: Task<Void, Never>

    init(pipe: SignalPipe) throws {
        var configuration = benchConfiguration()
        let sctpTrace = SCTPTrace()
        if tracing {
            sctpTrace.install(into: &configuration)
            sctpTrace.startReporting("child")
        }
        let pc = try PeerConnection(configuration: configuration)
        self.pc = pc
        let expected = self.expected, answerSent = self.answerSent
        watcher = Task {
            for await event in pc.events {
                trace("child event \(label(event))")
                switch event {
                case let .iceCandidate(candidate):
                    _ = await answerSent.wait()
                    pipe.send(candidate.map { Signal(type: "candidate", candidate: $0) } ?? Signal(type: "end-of-candidates"))
                case let .dataChannel(channel):
                    Task { await ChildRun.receive(on: channel, pipe: pipe, expected: expected) }
                case let .track(track):
                    // The first decoded audio frame's arrival, then the rest drained.
                    Task {
                        var first = true
                        for await frame in track.frames {
                            guard first, case .audio = frame else { continue }
                            first = false
                            var signal = Signal(type: "audio")
                            signal.time = wallSeconds()
                            pipe.send(signal)
                        }
                    }
                default: break
                }
            }
        }
    }

    /// Reports the channel's opening, then counts bytes until the parent's total has arrived.
    static func receive(on channel: DataChannel, pipe: SignalPipe, expected: Latch<Int>) async {
        var received = 0, messages = 0
        var target: Int?
        for await event in channel.events {
            switch event {
            case .open:
                var signal = Signal(type: "open")
                signal.time = wallSeconds()
                pipe.send(signal)
                target = await expected.wait()
                if target == 0 { return }
            case let .message(message):
                received += message.byteCount
                messages += 1
                if received >= (target ?? Int.max) {
                    var signal = Signal(type: "done")
                    signal.time = wallSeconds()
                    signal.bytes = received
                    signal.messages = messages
                    pipe.send(signal)
                }
            default: break
            }
        }
    }

    func close() {
        watcher.cancel()
        pc.close()
    }
}

/// Answers one offer per run, with a fresh peer connection each time, until `exit`.
func childMain() async {
    // Signals go to a private copy of stdout; anything else printing to stdout (a log handler)
    // goes to stderr and cannot corrupt them.
    let signalFD = dup(1)
    dup2(2, 1)
    let pipe = SignalPipe(readFD: 0, writeFD: signalFD)
    func nextRun() -> ChildRun {
        do { return try ChildRun(pipe: pipe) } catch { fail("child: \(error)") }
    }
    var current = nextRun()
    await awaitPool(current.pc)
    pipe.send(Signal(type: "ready"))
    for await signal in pipe.incoming {
        trace("child got \(signal.type)")
        let pc = current.pc
        do {
            switch signal.type {
            case "offer":
                current.expected.resolve(signal.bytes ?? 0)
                try await pc.setRemoteDescription(JSEPDescription(type: .offer, sdp: signal.sdp ?? ""))
                let answer = try await pc.createAnswer()
                try await pc.setLocalDescription(answer)
                // localDescription, with the candidates gathered so far (W3C), before any trickled one.
                pipe.send(Signal(type: "answer", sdp: pc.localDescription?.sdp ?? answer.sdp))
                current.answerSent.resolve(true)
            case "candidate": if let candidate = signal.candidate { try await pc.addICECandidate(candidate) }
            case "end-of-candidates": try await pc.addICECandidate(nil)
            case "bye":
                flushTrace()
                current.close()
                current = nextRun()
                await awaitPool(current.pc)
                pipe.send(Signal(type: "ready"))
            case "exit":
                flushTrace()
                current.close()
                exit(0)
            default: break
            }
        } catch {
            fail("child: \(signal.type): \(error)")
        }
    }
    current.close()
}

// MARK: - Entry

signal(SIGPIPE, SIG_IGN)
let arguments = CommandLine.arguments.dropFirst()
switch arguments.first {
case "child":
    await childMain()
case "parent":
    let options = Options(arguments.dropFirst())
    var setup: [Double] = [], throughput: [Double] = [], audioSetup: [Double] = []
    let child: ChildProcess
    do { child = try ChildProcess() } catch { fail("cannot start the child process: \(error)") }
    for run in 1...options.runs {
        do {
            let result = try await parentRun(options, run: run, child: child)
            if run <= options.warmUp { continue }  // the first connection of a fresh process pair: not counted
            setup.append(result.setupMs)
            if let value = result.throughputMBps { throughput.append(value) }
            if let value = result.audioSetupMs { audioSetup.append(value) }
        } catch {
            fail("run \(run): \(error)")
        }
    }
    child.finish()
    if !throughput.isEmpty {
        let megabits = options.throughputFigure.contains("_Mbps")
        Figure(name: options.throughputFigure, unit: megabits ? "Mbit/s" : "MB/s",
               samples: megabits ? throughput.map { $0 * 8 } : throughput).emit()
    }
    if options.setupFigure == "none" {
        // Only the transfer is measured by this invocation.
    } else if audioSetup.isEmpty {
        Figure(name: options.setupFigure, unit: "ms", samples: setup).emit()
    } else {
        // With audio the one figure covers both: channels open and the first decoded frame.
        Figure(name: options.audioFigure, unit: "ms", samples: audioSetup).emit()
    }
default:
    fail("usage: DCThroughput parent [--bytes N] [--message-size S] [--runs R] [--high B] [--low B]")
}
