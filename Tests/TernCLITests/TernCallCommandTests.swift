import Foundation
import Testing

/// `tern call --loopback` run as a user runs it: a subprocess whose JSON output is checked.
@Suite("tern call --loopback (subprocess)", .serialized)
struct TernCallCommandTests {
    /// The `tern` binary built next to the tests (`swift build --build-tests` builds it).
    static let tern: URL? = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        // The tern built beside this test binary first (`--scratch-path .build-asan` and the like),
        // then the default build directories.
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("tern")
        let candidates = [beside] + [".build/debug/tern", ".build/release/tern"].map { root.appendingPathComponent($0) }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    struct Run {
        var status: Int32
        var lines: [String]
        var summary: [String: Any]? {
            guard let last = lines.last(where: { $0.contains("\"summary\":true") }),
                  let object = try? JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any] else { return nil }
            return object
        }
    }

    /// Runs tern with a bound on its run time (a hung call is killed, and the test fails).
    static func run(_ arguments: [String], limit: Duration = .seconds(90)) async throws -> Run {
        let tern = try #require(TernCallCommandTests.tern, "build tern first: swift build --build-tests")
        let process = Process()
        process.executableURL = tern
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let reader = Task.detached { output.fileHandleForReading.readDataToEndOfFile() }
        let deadline = ContinuousClock.now + limit
        while process.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        let data = await reader.value
        process.waitUntilExit()
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        return Run(status: process.terminationStatus, lines: lines)
    }

    private func value(_ object: [String: Any]?, _ path: String) -> Any? {
        var current: Any? = object
        for key in path.split(separator: ".") { current = (current as? [String: Any])?[String(key)] }
        return current
    }

    @Test("a loopback call exits 0 and its JSON summary has every figure with real values")
    func loopbackCallSucceeds() async throws {
        let run = try await Self.run(["call", "--loopback", "--json", "--duration", "3"])
        let summary = try #require(run.summary, "no summary line in: \(run.lines.suffix(5))")
        #expect(run.status == 0, "result: \(summary["result"] ?? "?")")
        #expect(value(summary, "result") as? String == "ok")
        #expect(value(summary, "callStates") as? [String] == ["RINGING", "CONNECTING", "IN_PROGRESS", "ENDED"])
        #expect(value(summary, "calleeCallStates") as? [String] == ["RINGING", "CONNECTING", "IN_PROGRESS", "ENDED"])
        #expect((value(summary, "setupMs") as? Double ?? 0) > 0)
        #expect(value(summary, "ice.selectedPair.local.type") as? String == "host")
        #expect(value(summary, "ice.selectedPair.remote.type") as? String == "host")
        // PeerConfiguration.loopback nominates aggressively (one possible pair); the reason says so.
        #expect((value(summary, "ice.selectedPair.reason") as? String)?.contains("aggressive nomination") == true)
        // The ICE trace narrates the check list: pair states and the nomination.
        #expect(run.lines.contains { $0.contains("check 127.0.0.1:") && $0.contains("SUCCEEDED") })
        #expect(run.lines.contains { $0.contains("nominated 127.0.0.1:") && $0.contains("(aggressive nomination, controlling)") })
        #expect((value(summary, "dtls.srtpProfile") as? String)?.hasPrefix("SRTP_") == true)
        #expect((value(summary, "media.audio.packetsReceived") as? Int ?? 0) > 50)
        #expect(value(summary, "media.audio.detectedToneHz") as? Double == 440)
        #expect((value(summary, "media.video.framesDecoded") as? Int ?? 0) > 10)
        #expect(value(summary, "media.video.resolution") as? String == "320x240", "decoded as sent")
        #expect((value(summary, "dataChannel.messagesReceived") as? Int ?? 0) >= 4)
        // The per-second stats lines carry the sending side's SCTP association (its
        // sctp-transport stats entry): congestion window and smoothed RTT.
        let statsLines = run.lines.compactMap { line -> [String: Any]? in
            guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
                  object["category"] as? String == "stats" else { return nil }
            return object
        }
        #expect(statsLines.contains { ($0["sctpCongestionWindow"] as? Int ?? 0) > 0 && ($0["sctpSmoothedRttMs"] as? Double ?? 0) > 0 },
                "\(statsLines.last ?? [:])")
        // Every line is JSON.
        for line in run.lines {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "not JSON: \(line)")
        }
    }

    @Test("--processes: signal server and two peers as three processes over real WebSockets, same summary keys")
    func loopbackCallAsThreeProcesses() async throws {
        let run = try await Self.run(["call", "--loopback", "--processes", "--json", "--duration", "3"])
        let summary = try #require(run.summary, "no summary line in: \(run.lines.suffix(5))")
        #expect(run.status == 0, "result: \(summary["result"] ?? "?")")
        #expect(value(summary, "result") as? String == "ok")
        #expect(value(summary, "callStates") as? [String] == ["RINGING", "CONNECTING", "IN_PROGRESS", "ENDED"])
        #expect(value(summary, "calleeCallStates") as? [String] == ["RINGING", "CONNECTING", "IN_PROGRESS", "ENDED"])
        #expect((value(summary, "media.audio.packetsReceived") as? Int ?? 0) > 50)
        #expect((value(summary, "media.video.framesDecoded") as? Int ?? 0) > 10)
        #expect(value(summary, "dataChannel.echo.received") as? Int == 200)
        // The invite's attached data reached bob; each side's sendMessage reached the other.
        let attached = value(summary, "callee.attachedData") as? [[String: Any]]
        #expect(attached?.map { "\($0["name"] ?? "")=\($0["value"] ?? "")" } == ["processName=CustOnboarding"])
        let bobReceived = value(summary, "callee.manageCall.received") as? [[String: Any]] ?? []
        #expect(bobReceived.contains { ($0["data"] as? [[String: Any]])?.first?["dataValue"] as? String == "CustOnboarding" })
        let aliceReceived = value(summary, "manageCall.received") as? [[String: Any]] ?? []
        #expect(aliceReceived.contains { ($0["data"] as? [[String: Any]])?.first?["dataValue"] as? String == "documentsReceived" })
        // Lines from the children are relayed, tagged with the process that printed them.
        #expect(run.lines.contains { $0.contains("\"process\":\"bob\"") })
        #expect(run.lines.contains { $0.contains("\"process\":\"signal\"") || $0.contains("signaling server (child process)") })
    }

    @Test("--stats-interval prints each side's whole W3C stats report as JSON")
    func statsIntervalDumpsTheW3CReport() async throws {
        let run = try await Self.run(["call", "--loopback", "--json", "--duration", "3", "--stats-interval", "1"])
        #expect(run.status == 0, "result: \(run.summary?["result"] ?? "no summary line in: \(run.lines.suffix(5))")")
        let dumps = run.lines.compactMap { line -> [String: Any]? in
            guard line.contains("\"w3cstats\""), let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) else { return nil }
            return object as? [String: Any]
        }
        #expect(Set(dumps.compactMap { $0["who"] as? String }) == ["alice", "bob"])
        let report = try #require(dumps.last(where: { $0["who"] as? String == "bob" })?["report"] as? [[String: Any]])
        let types = Set(report.compactMap { $0["type"] as? String })
        for type in ["candidate-pair", "local-candidate", "remote-candidate", "transport", "inbound-rtp", "outbound-rtp", "codec"] {
            #expect(types.contains(type), "no \(type) entry")
        }
        let audio = report.first { $0["type"] as? String == "inbound-rtp" && $0["kind"] as? String == "audio" }
        #expect((audio?["packetsReceived"] as? Int ?? 0) > 0)
    }

    @Test("a tampered fingerprint fails the call with a non-zero exit that names the DTLS fingerprint step")
    func brokenFingerprintIsExplained() async throws {
        let run = try await Self.run(["call", "--loopback", "--json", "--duration", "2", "--break", "fingerprint"])
        #expect(run.status != 0)
        let result = try #require(run.summary?["result"] as? String)
        #expect(result.contains("connect"))
        #expect(result.localizedCaseInsensitiveContains("fingerprint"))
    }

    @Test("a tampered ICE password fails the call with a non-zero exit that names the ICE step")
    func brokenICEPasswordIsExplained() async throws {
        let run = try await Self.run(["call", "--loopback", "--json", "--duration", "2", "--break", "ice"])
        #expect(run.status != 0)
        let result = try #require(run.summary?["result"] as? String)
        #expect(result.contains("ICE"))
    }
}

@Suite("tern call --loopback --group (subprocess)", .serialized)
struct TernGroupCallCommandTests {
    @Test("--group 3: every member hears the other two tones and decodes their video; bob quits, alice ends; exit 0")
    func groupOfThree() async throws {
        let run = try await TernCallCommandTests.run(["call", "--loopback", "--group", "3", "--json", "--duration", "3"])
        let summary = try #require(run.summary, "no summary line in: \(run.lines.suffix(5))")
        #expect(run.status == 0, "result: \(summary["result"] ?? "?")")
        #expect(summary["result"] as? String == "ok")
        let members = try #require((summary["group"] as? [String: Any])?["members"] as? [String: [String: Any]])
        let tones: [String: Int] = ["alice": 440, "bob": 660, "carol": 880]
        for (name, member) in members {
            let heard = (member["heardFrom"] as? [String: Int]) ?? [:]
            #expect(heard == tones.filter { $0.key != name }, "\(name) heard \(heard)")
            let frames = (member["framesDecodedFrom"] as? [String: Int]) ?? [:]
            #expect(Set(frames.keys) == Set(tones.keys.filter { $0 != name }) && frames.values.allSatisfy { $0 >= 10 })
            #expect((member["messagesFrom"] as? [String])?.count == 2)
        }
        #expect(members["bob"]?["states"] as? [String] == ["bob inviting", "bob ringing", "bob accepted", "bob quit"])
        #expect(members["carol"]?["endReason"] as? String == "remoteHangUp")
        #expect(members["alice"]?["endReason"] as? String == "localHangUp")
    }
}
