import Foundation
import Synchronization
import Testing

/// `tern peer` as an interop rig drives it: `tern signal` and two `tern peer` processes, each a
/// subprocess whose JSON output is checked. Every wait is bounded; children are killed on failure.
@Suite("tern peer (subprocesses)", .serialized)
struct TernPeerCommandTests {
    /// A running child process whose stdout is collected line by line on a thread of its own
    /// (a blocking read must not hold one of the few cooperative threads).
    final class Child: Sendable {
        let name: String
        private let process: Process
        private let output = Mutex(Data())
        private let finished = Mutex(false)

        /// `withErrors`: standard error joins the lines too (ArgumentParser's "Error: …").
        init(_ name: String, executable: URL? = nil, _ arguments: [String], withErrors: Bool = false) throws {
            let tern = try #require(executable ?? TernCallCommandTests.tern, "build tern first: swift build --build-tests")
            self.name = name
            process = Process()
            process.executableURL = tern
            process.arguments = arguments
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = withErrors ? pipe : FileHandle.nullDevice
            try process.run()
            let handle = pipe.fileHandleForReading
            Thread.detachNewThread { [self] in
                while true {
                    let data = handle.availableData
                    if data.isEmpty { break }
                    output.withLock { $0.append(data) }
                }
                finished.withLock { $0 = true }
            }
        }

        var lines: [String] {
            String(decoding: output.withLock { $0 }, as: UTF8.self).split(separator: "\n").map(String.init)
        }

        /// The first line containing `text`, waiting at most `seconds`.
        func line(containing text: String, seconds: Double = 30) async -> String? {
            let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
            while ContinuousClock.now < deadline {
                if let line = lines.first(where: { $0.contains(text) }) { return line }
                try? await Task.sleep(for: .milliseconds(20))
            }
            return lines.first { $0.contains(text) }
        }

        /// Waits at most `seconds` for the process to exit (and its output to be read); kills it
        /// if it is still running. Returns the exit status (nil when it had to be killed).
        func exit(within seconds: Double = 30) async -> Int32? {
            let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
            while process.isRunning || !finished.withLock({ $0 }), ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(20))
            }
            guard !process.isRunning else {
                kill()
                return nil
            }
            return process.terminationStatus
        }

        /// Sends SIGTERM (a rig stopping the peer).
        func terminate() {
            if process.isRunning { process.terminate() }
        }

        func kill() {
            if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }

        /// The summary line as an object.
        var summary: [String: Any]? {
            guard let last = lines.last(where: { $0.contains("\"summary\":true") }) else { return nil }
            return try? JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any]
        }
    }

    func value(_ object: [String: Any]?, _ path: String) -> Any? {
        var current: Any? = object
        for key in path.split(separator: ".") { current = (current as? [String: Any])?[String(key)] }
        return current
    }

    /// Starts `tern signal` on a free port; returns it and its URL.
    func startSignal() async throws -> (Child, String) {
        let signal = try Child("signal", ["signal", "--port", "0"])
        guard let line = await signal.line(containing: "listening on ws://"),
              let start = line.range(of: "ws://"),
              let url = line[start.lowerBound...].split(separator: " ").first else {
            signal.kill()
            throw TestFailure("tern signal printed no URL: \(signal.lines)")
        }
        return (signal, String(url))
    }

    struct TestFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Runs bob (answering) and then alice (calling bob); both must exit within 30 s of the call.
    func call(bob bobArguments: [String], alice aliceArguments: [String])
        async throws -> (alice: Child, aliceStatus: Int32?, bob: Child, bobStatus: Int32?) {
        let (signal, url) = try await startSignal()
        defer { signal.kill() }
        let common = ["peer", "--signal", url, "--json", "--ice-address", "127.0.0.1"]
        let bob = try Child("bob", common + ["--user", "bob", "--answer", "--wait", "30"] + bobArguments)
        guard await bob.line(containing: "\"event\":\"registered\"") != nil else {
            bob.kill()
            throw TestFailure("bob did not register: \(bob.lines.suffix(5))")
        }
        let alice: Child
        do { alice = try Child("alice", common + ["--user", "alice", "--call", "bob"] + aliceArguments) } catch {
            bob.kill()
            throw error
        }
        let aliceStatus = await alice.exit(within: 30)
        let bobStatus = await bob.exit(within: 30)
        return (alice, aliceStatus, bob, bobStatus)
    }

    @Test("data echo: 200 numbered messages come back once and in order, and both peers exit 0")
    func echoRunThroughTheSignalingServer() async throws {
        let run = try await call(bob: ["--data", "--echo"], alice: ["--data", "--echo-count", "200"])
        let alice = try #require(run.alice.summary, "no summary from alice: \(run.alice.lines.suffix(5))")
        let bob = try #require(run.bob.summary, "no summary from bob: \(run.bob.lines.suffix(5))")
        #expect(run.aliceStatus == 0, "alice: \(alice["result"] ?? "?")")
        #expect(run.bobStatus == 0, "bob: \(bob["result"] ?? "?")")
        #expect(value(alice, "result") as? String == "ok")
        #expect(value(alice, "callStates") as? [String] == ["RINGING", "CONNECTING", "IN_PROGRESS", "ENDED"])
        #expect(value(alice, "endReason") as? String == "localHangUp")
        #expect(value(alice, "dataChannel.echo.sent") as? Int == 200)
        #expect(value(alice, "dataChannel.echo.received") as? Int == 200)
        #expect(value(alice, "dataChannel.echo.inOrder") as? Bool == true)
        #expect(value(alice, "dataChannel.echo.duplicates") as? Int == 0)
        #expect(value(alice, "dataChannel.echo.corrupted") as? Int == 0)
        #expect(value(alice, "dataChannel.messagesReceived") as? Int == 200)
        #expect((value(alice, "setupMs") as? Double ?? 0) > 0)
        #expect(value(alice, "ice.selectedPair.local.type") as? String == "host")
        // Regular nomination between two processes: DTLS went out on the first valid pair, where
        // libnice has Tern's patch (always as root: `make test` installs it).
        #expect(value(alice, "ice.validPairBeforeSelection") is Bool)
        if getuid() == 0 {
            #expect(value(alice, "ice.validPairBeforeSelection") as? Bool == true)
            #expect(value(bob, "ice.validPairBeforeSelection") as? Bool == true)
        }
        #expect((value(alice, "dtls.srtpProfile") as? String)?.hasPrefix("SRTP_") == true)
        #expect(value(bob, "result") as? String == "ok")
        #expect(value(bob, "callStates") as? [String] == ["RINGING", "CONNECTING", "IN_PROGRESS", "ENDED"])
        #expect(value(bob, "endReason") as? String == "remoteHangUp")
        #expect(value(bob, "dataChannel.messagesEchoed") as? Int == 200)
        #expect(value(bob, "dataChannel.channels") as? [String] == ["tern-data"])
        // Every line either process printed is JSON.
        for line in run.alice.lines + run.bob.lines {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "not JSON: \(line)")
        }
    }

    @Test("binary 16 KiB echo messages come back byte for byte")
    func binaryEchoIsByteForByte() async throws {
        let run = try await call(bob: ["--data", "--echo"],
                                 alice: ["--data", "--echo-count", "50", "--echo-size", "16384", "--echo-binary"])
        let alice = try #require(run.alice.summary, "no summary from alice: \(run.alice.lines.suffix(5))")
        #expect(run.aliceStatus == 0, "alice: \(alice["result"] ?? "?")")
        #expect(run.bobStatus == 0)
        #expect(value(alice, "dataChannel.echo.received") as? Int == 50)
        #expect(value(alice, "dataChannel.echo.corrupted") as? Int == 0)
        #expect(value(alice, "dataChannel.echo.inOrder") as? Bool == true)
    }

    @Test("audio and video: each peer decodes frames and hears the other's tone; --pcap and --report are written")
    func audioAndVideoBothWays() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tern-peer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let pcap = directory.appendingPathComponent("alice.pcap").path
        let report = directory.appendingPathComponent("alice.html").path
        let run = try await call(bob: ["--audio", "--video", "--expect-tone", "440"],
                                 alice: ["--audio", "--video", "--expect-tone", "660", "--duration", "3", "--pcap", pcap, "--report", report])
        let alice = try #require(run.alice.summary, "no summary from alice: \(run.alice.lines.suffix(5))")
        let bob = try #require(run.bob.summary, "no summary from bob: \(run.bob.lines.suffix(5))")
        #expect(run.aliceStatus == 0, "alice: \(alice["result"] ?? "?")")
        #expect(run.bobStatus == 0, "bob: \(bob["result"] ?? "?")")
        #expect(value(alice, "callStates") as? [String] == ["RINGING", "CONNECTING", "IN_PROGRESS", "ENDED"])
        for (summary, heard) in [(alice, 660.0), (bob, 440.0)] {
            #expect((value(summary, "media.audio.packetsReceived") as? Int ?? 0) > 20)
            #expect((value(summary, "media.video.framesDecoded") as? Int ?? 0) > 10)
            let tone = value(summary, "media.audio.detectedToneHz") as? Double
            #expect(tone.map { abs($0 - heard) <= 2 } == true, "detected \(String(describing: tone)), expected \(heard)")
        }
        // A pcap holds more than its 24-byte header; the report names the peer and draws charts.
        let pcapSize = (try? FileManager.default.attributesOfItem(atPath: pcap)[.size] as? Int) ?? 0
        #expect(pcapSize > 24 + 100 * 16)
        let page = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
        #expect(page.contains("tern peer (alice)"))
        #expect(page.contains("<svg"))
    }

    @Test("secrets from files: tern signal --secret-file, tern signal token, tern peer --token-file; a wrong, an expired and a short-secret token are refused")
    func secretsFromFiles() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tern-secrets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let secret = directory.appendingPathComponent("secret").path, short = directory.appendingPathComponent("short").path
        try "tern-cli-test-secret-0123456789abcdef\n".write(toFile: secret, atomically: true, encoding: .utf8)
        try "s3cret\n".write(toFile: short, atomically: true, encoding: .utf8)

        let refusedSecret = try Child("short", ["signal", "--port", "0", "--secret-file", short], withErrors: true)
        #expect(await refusedSecret.exit(within: 20) != 0)
        #expect(refusedSecret.lines.contains { $0.contains("HS256 needs at least 32") }, "\(refusedSecret.lines.suffix(3))")

        func mint(_ name: String, _ arguments: [String]) async throws -> String {
            let path = directory.appendingPathComponent(name).path
            let child = try Child(name, ["signal", "token", "--secret-file", secret, "--user", "alice"] + arguments)
            #expect(await child.exit(within: 20) == 0)
            let token = try #require(child.lines.last { $0.split(separator: ".").count == 3 }, "\(child.lines)")
            try "\(token)\n".write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let good = try await mint("good", ["--ttl", "5m"])
        let expired = try await mint("expired", ["--ttl", "60", "--not-before", "-120"])
        let bad = directory.appendingPathComponent("bad").path
        try "eyJhbGciOiJub25lIn0.eyJzdWIiOiJhbGljZSJ9.\n".write(toFile: bad, atomically: true, encoding: .utf8)

        let signal = try Child("signal", ["signal", "--port", "0", "--secret-file", secret])
        defer { signal.kill() }
        guard let line = await signal.line(containing: "listening on ws://"), let start = line.range(of: "ws://"),
              let url = line[start.lowerBound...].split(separator: " ").first else {
            throw TestFailure("tern signal printed no URL: \(signal.lines)")
        }
        #expect(!signal.lines.contains { $0.contains("open development mode") }, "the file's secret is in force")
        let common = ["peer", "--signal", String(url), "--json", "--user", "alice", "--answer", "--wait", "1"]
        let accepted = try Child("good", common + ["--token-file", good])
        #expect(await accepted.line(containing: "\"event\":\"registered\"") != nil, "\(accepted.lines.suffix(5))")
        accepted.kill()
        for (file, code) in [(bad, "badToken"), (expired, "tokenExpired")] {
            let refused = try Child("refused", common + ["--token-file", file])
            _ = await refused.exit(within: 20)
            #expect(!refused.lines.contains { $0.contains("\"event\":\"registered\"") })
            #expect(refused.lines.contains { $0.contains(code) }, "\(refused.lines.suffix(5))")
        }
    }

    @Test("--expect-tone: hearing 660 Hz where 500 Hz is expected fails the audio step and the exit status")
    func wrongToneFailsTheAudioCheck() async throws {
        let run = try await call(bob: ["--audio"], alice: ["--audio", "--expect-tone", "500", "--duration", "2"])
        let alice = try #require(run.alice.summary, "no summary from alice: \(run.alice.lines.suffix(5))")
        #expect(run.aliceStatus != 0)
        let steps = value(alice, "steps") as? [[String: Any]] ?? []
        let audio = steps.first { $0["name"] as? String == "audio" }
        #expect(audio?["passed"] as? Bool == false, "\(steps)")
        #expect((audio?["detail"] as? String ?? "").contains("expected 500 Hz"), "\(String(describing: audio))")
    }

    @Test("through a real TURN server (coturn) over UDP, relay candidates only, credentials inline and from a file: the echo run passes relay to relay",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/turnserver"),
                   "needs /usr/bin/turnserver (apt-get install coturn)"))
    func relayOnlyThroughCoturn() async throws {
        let turnserver = URL(fileURLWithPath: "/usr/bin/turnserver")
        // Below Linux's ephemeral range (32768–60999): no client socket of a test beside this
        // one is given it (or a relay port above it) meanwhile.
        let port = Int.random(in: 10_000...30_000)
        let coturn = try Child("turnserver", executable: turnserver, [
            "-n", "--no-cli", "--no-dtls", "--no-tls", "--listening-ip=127.0.0.1", "--relay-ip=127.0.0.1",
            "--listening-port=\(port)", "--min-port=\(port + 1)", "--max-port=\(port + 200)",
            "--lt-cred-mech", "--user=u:p", "--realm=tern", "--allow-loopback-peers", "--log-file=stdout", "--simple-log",
        ])
        defer { coturn.kill() }
        try #require(await coturn.line(containing: "Total General servers") != nil, "turnserver did not start: \(coturn.lines.suffix(5))")
        // bob's credentials inline, alice's from a file (kept out of ps).
        let credentials = FileManager.default.temporaryDirectory.appendingPathComponent("tern-turn-\(UUID().uuidString)").path
        try "u:p\n".write(toFile: credentials, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: credentials) }
        let inline = ["--data", "--turn", "turn:u:p@127.0.0.1:\(port)", "--relay-only"]
        let fromFile = ["--data", "--turn", "turn:127.0.0.1:\(port)", "--turn-credentials-file", credentials, "--relay-only"]
        let run = try await call(bob: inline + ["--echo"], alice: fromFile + ["--echo-count", "100"])
        let alice = try #require(run.alice.summary, "no summary from alice: \(run.alice.lines.suffix(5))")
        #expect(run.aliceStatus == 0, "alice: \(alice["result"] ?? "?")")
        #expect(run.bobStatus == 0)
        #expect(value(alice, "ice.selectedPair.local.type") as? String == "relay")
        #expect(value(alice, "ice.selectedPair.remote.type") as? String == "relay")
        #expect(value(alice, "dataChannel.echo.received") as? Int == 100)
        #expect(value(alice, "dataChannel.echo.inOrder") as? Bool == true)
    }

    @Test("SIGTERM stops an answerer with no --duration cleanly: it hangs up, prints its summary, both exit 0")
    func terminatedAnswererHangsUp() async throws {
        let (signal, url) = try await startSignal()
        defer { signal.kill() }
        let common = ["peer", "--signal", url, "--json", "--ice-address", "127.0.0.1", "--audio"]
        let bob = try Child("bob", common + ["--user", "bob", "--answer"])
        defer { bob.kill() }
        try #require(await bob.line(containing: "\"event\":\"registered\"") != nil, "bob did not register: \(bob.lines.suffix(5))")
        let alice = try Child("alice", common + ["--user", "alice", "--call", "bob", "--duration", "60"])
        defer { alice.kill() }
        // One stats line means the call is up and media has flowed for a second.
        try #require(await bob.line(containing: "\"category\":\"stats\"") != nil, "no stats from bob: \(bob.lines.suffix(5))")
        bob.terminate()
        let bobStatus = await bob.exit(within: 30)
        let aliceStatus = await alice.exit(within: 30)
        let bobSummary = try #require(bob.summary, "no summary from bob: \(bob.lines.suffix(5))")
        let aliceSummary = try #require(alice.summary, "no summary from alice: \(alice.lines.suffix(5))")
        #expect(bobStatus == 0, "bob: \(bobSummary["result"] ?? "?")")
        #expect(aliceStatus == 0, "alice: \(aliceSummary["result"] ?? "?")")
        #expect(value(bobSummary, "endReason") as? String == "localHangUp")
        #expect(value(aliceSummary, "endReason") as? String == "remoteHangUp")
        #expect((value(bobSummary, "media.audio.packetsReceived") as? Int ?? 0) > 0)
    }

    @Test("calling a user nobody registered as fails with a non-zero exit that says why")
    func callingAnAbsentUserFails() async throws {
        let (signal, url) = try await startSignal()
        defer { signal.kill() }
        let alice = try Child("alice", ["peer", "--signal", url, "--json", "--user", "alice", "--call", "nobody",
                                        "--ice-address", "127.0.0.1"])
        let status = await alice.exit(within: 30)
        #expect(status != nil && status != 0)
        let result = try #require(alice.summary?["result"] as? String, "no summary: \(alice.lines.suffix(5))")
        #expect(result.contains("connect"))
        #expect(result.contains("rejected"))
    }

    @Test("neither --call nor --answer is a usage error")
    func roleIsRequired() async throws {
        let peer = try Child("peer", ["peer", "--signal", "ws://127.0.0.1:1/v1", "--user", "alice"])
        #expect(await peer.exit(within: 30) == 64)
    }
}
