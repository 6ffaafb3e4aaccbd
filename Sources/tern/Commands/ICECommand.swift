import ArgumentParser
import Foundation
import TernCore
import TernICE
import TernSDP

/// `tern ice …`: ICE tools on top of TernICE (libnice).
struct ICECommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ice",
        abstract: "ICE (RFC 8445) tools: gather local candidates through STUN/TURN servers.",
        subcommands: [Gather.self, Loopback.self])
}

extension ICECommand {
    /// `tern ice gather`: gathers and lists local candidates, as SDP lines or JSON.
    struct Gather: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Gather local ICE candidates and print them as a=candidate lines (or JSON).")

        @OptionGroup var ice: ICEOptions

        @Flag(name: .long, help: "Also gather ICE-TCP host candidates.")
        var tcp = false

        @Option(name: .long, help: "Give up after this many seconds.")
        var timeout: Double = 10

        @Flag(name: .long, help: "Print JSON: credentials, candidates and the trace.")
        var json = false

        func run() async throws {
            var configuration = try ice.applied(to: ICEConfiguration())
            configuration.iceTCP = tcp
            let transport = try ICETransport(configuration: configuration, role: .controlling)
            defer { transport.close() }
            let credentials = transport.localCredentials
            if !json {
                print("a=ice-ufrag:\(credentials.ufrag)")
                print("a=ice-pwd:\(credentials.pwd)")
            }
            let timeout = self.timeout
            let watchdog = Task {
                try await Task.sleep(for: .seconds(timeout))
                transport.close()
            }
            try transport.gather()
            var candidates: [ICECandidate] = []
            for await event in transport.events {
                switch event {
                case let .candidate(candidate):
                    candidates.append(candidate)
                    if !json { print("a=\(candidate.candidateString)") }
                case .gatheringComplete:
                    if !json { print("a=end-of-candidates") }
                default: break
                }
                if case .gatheringComplete = event { break }
            }
            watchdog.cancel()
            if transport.gatheringState != .complete {
                FileHandle.standardError.write(Data("gathering did not complete within \(timeout) s\n".utf8))
            }
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                let report = GatherReport(credentials: credentials, candidates: candidates,
                                          complete: transport.gatheringState == .complete, trace: transport.trace)
                print(String(decoding: try encoder.encode(report), as: UTF8.self))
            }
        }
    }

    /// What `gather --json` prints.
    struct GatherReport: Encodable {
        var credentials: ICECredentials
        var candidates: [ICECandidate]
        var complete: Bool
        var trace: ICETrace
    }
}

extension ICECommand {
    /// `tern ice loopback`: two agents in this process on 127.0.0.1, host candidates only;
    /// measures gather start → both sides connected, over several runs.
    struct Loopback: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Measure gather start → connected for two host-only agents on 127.0.0.1.")

        @Option(name: .long, help: "Number of connections to measure.")
        var runs: Int = 50

        @Option(name: .long, help: "STUN pacing (Ta) in milliseconds.")
        var pacing: Int = 5

        @Flag(help: "Print the figures as one JSON object (milliseconds).")
        var json = false

        func run() async throws {
            var configuration = ICEConfiguration()
            configuration.allowedAddresses = ["127.0.0.1"]
            configuration.stunPacing = .milliseconds(pacing)
            let clock = SystemClock()
            var samples: [Double] = []
            for _ in 0..<max(1, runs) {
                let a = try ICETransport(configuration: configuration, role: .controlling)
                let b = try ICETransport(configuration: configuration, role: .controlled)
                try a.setRemoteCredentials(b.localCredentials)
                try b.setRemoteCredentials(a.localCredentials)
                let start = clock.now()
                async let doneA = Self.signal(a, to: b, clock: clock)
                async let doneB = Self.signal(b, to: a, clock: clock)
                try a.gather()
                try b.gather()
                let (ta, tb) = await (doneA, doneB)
                a.close()
                b.close()
                guard let ta, let tb else { throw ValidationError("a loopback connection did not come up") }
                samples.append((max(ta, tb) - start).milliseconds)
            }
            samples.sort()
            let median = samples[samples.count / 2]
            let p90 = samples[min(samples.count - 1, samples.count * 9 / 10)]
            if json {
                print(JSONValue.object([
                    "runs": .int(samples.count), "pacingMs": .int(pacing), "medianMs": .number(median),
                    "p90Ms": .number(p90), "minMs": .number(samples[0]), "maxMs": .number(samples[samples.count - 1]),
                    "samplesMs": .array(samples.map { .number($0) }),
                ]).serialized)
            } else {
                print("runs=\(samples.count) pacing=\(pacing)ms gather→connected: median \(Self.ms(median)) p90 \(Self.ms(p90)) min \(Self.ms(samples[0])) max \(Self.ms(samples[samples.count - 1]))")
            }
        }

        /// Forwards `from`'s candidates to `to`; returns when `from` is connected (nil if it never is).
        static func signal(_ from: ICETransport, to: ICETransport, clock: SystemClock) async -> Instant? {
            for await event in from.events {
                switch event {
                case let .candidate(c): try? to.addRemoteCandidate(c.candidateString)
                case .gatheringComplete: try? to.addRemoteEndOfCandidates()
                case .stateChanged(.connected), .stateChanged(.completed): return clock.now()
                case .stateChanged(.failed), .stateChanged(.closed): return nil
                default: break
                }
            }
            return nil
        }

        static func ms(_ value: Double) -> String { String(format: "%.2fms", value) }
    }
}
