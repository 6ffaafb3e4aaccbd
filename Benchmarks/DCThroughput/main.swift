// Data-channel throughput and set-up latency between two Tern peers in two processes on
// loopback (issues #7 and #12), release build, DTLS and ICE (libnice) included.
//
//   DCThroughput parent [--bytes N] [--message-size S] [--runs R] [--high B] [--low B]
//                       [--throughput-figure NAME]  (default dc_throughput_loopback_MBps; a name
//                       ending in _Mbps reports Mbit/s) [--setup-figure NAME] (default setup_ms)
//   DCThroughput child             (spawned by the parent; signals over its stdin/stdout)
//
// Each run spawns a fresh child process and creates a fresh PeerConnection in the parent.
// The two exchange offer/answer and trickled candidates as JSON lines over the child's pipes.
// The parent (offerer) opens one reliable ordered channel and, once it is open on both sides,
// sends N bytes (default 64 MiB) in S-byte binary messages (default 64 KiB), keeping
// bufferedAmount under --high (default 4 MiB) and waiting for the bufferedAmountLow event
// (threshold --low, default 1 MiB). The child reports the CLOCK_MONOTONIC time of the last byte.
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
//
// Signaling follows JSEP order: each side sends its description once setLocalDescription has
// applied it and forwards its trickled candidates only after that. DCBENCH_TRACE=1 prints the
// signals, every peer event (with CLOCK_MONOTONIC ms) and, once a second, SCTP counters seen by a
// packet tap (DATA sent / retransmitted, SACKs with gap blocks) on stderr.
import BenchPeerSupport
import BenchSupport
import Foundation
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
    var high = 4 * 1024 * 1024
    var low = 1024 * 1024
    var throughputFigure = "dc_throughput_loopback_MBps"
    var setupFigure = "setup_ms"

    init(_ arguments: ArraySlice<String>) {
        var iterator = arguments.makeIterator()
        while let flag = iterator.next() {
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

/// Progress on stderr with DCBENCH_TRACE=1.
func trace(_ message: @autoclosure () -> String) {
    if tracing { log(String(format: "%.3f ms ", wallSeconds() * 1000) + "[\(getpid())] \(message())") }
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

/// Both processes' configuration: loopback ICE; DCBENCH_SCTP_MAX_PACKET=N caps the SCTP packet
/// size path MTU discovery may reach (1200 turns discovery off: every packet 1,200 bytes).
func benchConfiguration() -> PeerConfiguration {
    var configuration = PeerConfiguration.loopback
    if let address = ProcessInfo.processInfo.environment["DCBENCH_ICE_ADDRESS"] {
        configuration.ice.allowedAddresses = [address]
    }
    if let text = ProcessInfo.processInfo.environment["DCBENCH_SCTP_MAX_PACKET"], let size = Int(text) {
        configuration.sctp.maximumPacketSize = size
        configuration.sctp.pathMTUDiscovery = size > configuration.sctp.mtu
    }
    return configuration
}

// MARK: - Parent (offerer, sender)

struct RunResult {
    var setupMs: Double
    var throughputMBps: Double?
}

func parentRun(_ options: Options, run: Int) async throws -> RunResult {
    let watchdog = armWatchdog(seconds: 180, run: run)
    defer { watchdog.cancel() }
    let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    let toChild = Pipe(), fromChild = Pipe()
    let child = Process()
    let wrapper = ProcessInfo.processInfo.environment["DCBENCH_CHILD_WRAPPER"]?
        .split(separator: " ").map(String.init) ?? []
    if let first = wrapper.first {
        child.executableURL = URL(fileURLWithPath: first)
        child.arguments = Array(wrapper.dropFirst()) + [executable, "child"]
    } else {
        child.executableURL = URL(fileURLWithPath: executable)
        child.arguments = ["child"]
    }
    child.standardInput = toChild
    child.standardOutput = fromChild
    try child.run()
    let pipe = SignalPipe(readFD: fromChild.fileHandleForReading.fileDescriptor,
                          writeFD: toChild.fileHandleForWriting.fileDescriptor)

    var configuration = benchConfiguration()
    let sctpTrace = SCTPTrace()
    if tracing { sctpTrace.install(into: &configuration) }
    let pc = try PeerConnection(configuration: configuration)
    let channel = try pc.createDataChannel("bench", options: DataChannelInit(ordered: true))
    channel.bufferedAmountLowThreshold = options.low
    if tracing { sctpTrace.startReporting("parent run \(run)") { "bufferedAmount \(channel.bufferedAmount)" } }

    let ending = Flag()
    let ready = Latch<Bool>(), offerSent = Latch<Bool>(), childOpen = Latch<Double>(), done = Latch<Signal>()
    let candidates = Task {
        for await event in pc.events {
            trace("parent event \(event)")
            if case let .iceCandidate(candidate) = event {
                _ = await offerSent.wait()  // a candidate is useless to the child before the offer
                pipe.send(candidate.map { Signal(type: "candidate", candidate: $0) } ?? Signal(type: "end-of-candidates"))
            }
        }
    }
    // Signals are applied in arrival order: the answer before the candidates that follow it.
    let reader = Task {
        for await signal in pipe.incoming {
            trace("parent got \(signal.type)")
            switch signal.type {
            case "ready": ready.resolve(true)
            case "answer":
                do { try await pc.setRemoteDescription(JsepDescription(type: .answer, sdp: signal.sdp ?? "")) } catch {
                    fail("setRemoteDescription(answer): \(error)")
                }
            case "candidate": if let candidate = signal.candidate { try? await pc.addIceCandidate(candidate) }
            case "end-of-candidates": try? await pc.addIceCandidate(nil)
            case "open": childOpen.resolve(signal.time ?? 0)
            case "done": done.resolve(signal)
            default: break
            }
        }
        if ending.isSet || Task.isCancelled { return }
        fail("the child process ended early (its stderr above says why)")
    }
    _ = await ready.wait()

    // Set-up: createOffer → open on both sides.
    let setupStart = wallSeconds()
    trace("createOffer")
    // JSEP order: the offer goes out once applied, so the answer cannot race setLocalDescription.
    let offer = try await pc.createOffer()
    try await pc.setLocalDescription(offer)
    var offerSignal = Signal(type: "offer", sdp: offer.sdp)
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

    // Throughput: send, keeping bufferedAmount under `high`.
    var throughput: Double?
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
    } else {
        log(String(format: "run %d: set-up %.1f ms", run, setupMs))
    }

    ending.set()
    pipe.send(Signal(type: "bye"))
    reader.cancel()
    candidates.cancel()
    pc.close()
    child.waitUntilExit()
    withExtendedLifetime((toChild, fromChild)) {}  // their FileHandles own the pipe descriptors
    return RunResult(setupMs: setupMs, throughputMBps: throughput)
}

// MARK: - Child (answerer, receiver)

func childMain() async {
    // Signals go to a private copy of stdout; anything else printing to stdout (a log handler)
    // goes to stderr and cannot corrupt them.
    let signalFD = dup(1)
    dup2(2, 1)
    let pipe = SignalPipe(readFD: 0, writeFD: signalFD)
    let pc: PeerConnection
    var configuration = benchConfiguration()
    let sctpTrace = SCTPTrace()
    if tracing {
        sctpTrace.install(into: &configuration)
        sctpTrace.startReporting("child")
    }
    do { pc = try PeerConnection(configuration: configuration) } catch { fail("child: \(error)") }
    let expected = Latch<Int>(), answerSent = Latch<Bool>()
    let watcher = Task {
        for await event in pc.events {
            trace("child event \(event)")
            switch event {
            case let .iceCandidate(candidate):
                _ = await answerSent.wait()
                pipe.send(candidate.map { Signal(type: "candidate", candidate: $0) } ?? Signal(type: "end-of-candidates"))
            case let .dataChannel(channel):
                Task {
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
            default: break
            }
        }
    }
    pipe.send(Signal(type: "ready"))
    for await signal in pipe.incoming {
        trace("child got \(signal.type)")
        do {
            switch signal.type {
            case "offer":
                expected.resolve(signal.bytes ?? 0)
                try await pc.setRemoteDescription(JsepDescription(type: .offer, sdp: signal.sdp ?? ""))
                let answer = try await pc.createAnswer()
                try await pc.setLocalDescription(answer)
                pipe.send(Signal(type: "answer", sdp: answer.sdp))  // before any of our candidates
                answerSent.resolve(true)
            case "candidate": if let candidate = signal.candidate { try await pc.addIceCandidate(candidate) }
            case "end-of-candidates": try await pc.addIceCandidate(nil)
            case "bye":
                watcher.cancel()
                pc.close()
                exit(0)
            default: break
            }
        } catch {
            fail("child: \(signal.type): \(error)")
        }
    }
    pc.close()
}

// MARK: - Entry

signal(SIGPIPE, SIG_IGN)
let arguments = CommandLine.arguments.dropFirst()
switch arguments.first {
case "child":
    await childMain()
case "parent":
    let options = Options(arguments.dropFirst())
    var setup: [Double] = [], throughput: [Double] = []
    for run in 1...options.runs {
        do {
            let result = try await parentRun(options, run: run)
            setup.append(result.setupMs)
            if let value = result.throughputMBps { throughput.append(value) }
        } catch {
            fail("run \(run): \(error)")
        }
    }
    if !throughput.isEmpty {
        let megabits = options.throughputFigure.hasSuffix("_Mbps")
        Figure(name: options.throughputFigure, unit: megabits ? "Mbit/s" : "MB/s",
               samples: megabits ? throughput.map { $0 * 8 } : throughput).emit()
    }
    Figure(name: options.setupFigure, unit: "ms", samples: setup).emit()
default:
    fail("usage: DCThroughput parent [--bytes N] [--message-size S] [--runs R] [--high B] [--low B]")
}
