import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// `tern call --loopback --processes`: the same call as the in-process one, but as three real
/// processes on 127.0.0.1 — `tern signal` (the reference server, over real WebSockets) and two
/// `tern peer`s, bob answering and alice calling. Their JSON lines are relayed into this
/// timeline (tagged with who said them), and the summary is alice's with bob's call states added.
/// Exit status 0 only if all three behaved and both peers' checks passed.
struct ProcessCall {
    struct Options {
        var duration: Double
        var audio: Bool
        var video: Bool
        var data: Bool
    }

    let options: Options
    let timeline: Timeline

    /// This executable, for the children.
    private static var executable: URL {
        URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
    }

    func run() async -> (summary: JSONValue, text: String, passed: Bool) {
        let server = Child(name: "signal", arguments: ["signal", "--host", "127.0.0.1", "--port", "0", "--json"], timeline: timeline)
        defer { server.stop() }
        guard let url = await server.waitForLine(seconds: 10, where: { $0["event"] == .string("listening") })?["url"],
              case let .string(signalURL) = url else {
            return failure("signaling server did not start")
        }
        timeline.log("tern", "signaling server (child process) at \(signalURL)")
        var media: [String] = []
        if options.audio { media.append("--audio") }
        if options.video { media.append("--video") }
        if options.data { media.append("--data") }
        let common = ["--signal", signalURL, "--json", "--ice-address", "127.0.0.1"] + media
        let bob = Child(name: "bob", arguments: ["peer", "--user", "bob", "--answer", "--wait", "30"] + common
                            + (options.data ? ["--echo", "--send-message", "status=documentsReceived"] : []), timeline: timeline)
        defer { bob.stop() }
        guard await bob.waitForLine(seconds: 15, where: { $0["event"] == .string("registered") }) != nil else {
            return failure("bob did not register")
        }
        var aliceArguments = ["peer", "--user", "alice", "--call", "bob", "--duration", String(options.duration),
                              "--attach", "processName=CustOnboarding"] + common
        if options.data { aliceArguments += ["--echo-count", "200", "--send-message", "processName=CustOnboarding"] }
        let alice = Child(name: "alice", arguments: aliceArguments, timeline: timeline)
        defer { alice.stop() }
        let aliceStatus = await alice.wait(seconds: options.duration + 60)
        let bobStatus = await bob.wait(seconds: 20)
        guard case var .object(summary)? = alice.summary else { return failure("alice printed no summary (exit \(aliceStatus))") }
        let bobSummary: [String: JSONValue] = if case let .object(o)? = bob.summary { o } else { [:] }
        let bobStates = bobSummary["callStates"]
        summary["calleeCallStates"] = bobStates ?? .null
        // What reached bob: the invite's attached data and alice's sendMessage envelope.
        summary["callee"] = .object(["attachedData": bobSummary["attachedData"] ?? .null,
                                     "manageCall": bobSummary["manageCall"] ?? .null])
        summary["processes"] = .object(["alice": .int(Int(aliceStatus)), "bob": .int(Int(bobStatus))])
        // Each side decodes at least 90 % of the frames the other handed to its transport (each
        // process knows only its own half; this one sees both).
        var shortfalls: [String] = []
        if options.video {
            for (receiver, received, sent) in [("alice", summary, bobSummary), ("bob", bobSummary, summary)] {
                let decoded = Self.video(received, "framesDecoded"), owed = Self.video(sent, "framesSent")
                if owed == 0 || Double(decoded) < 0.9 * Double(owed) { shortfalls.append("\(receiver) decoded \(decoded) of \(owed) frames sent") }
            }
        }
        let passed = aliceStatus == 0 && bobStatus == 0 && shortfalls.isEmpty
        if !passed, case .string("ok")? = summary["result"] {
            summary["result"] = .string(shortfalls.isEmpty ? "failed: exit status alice \(aliceStatus), bob \(bobStatus)"
                                        : "failed: " + shortfalls.joined(separator: ", "))
        }
        let result: String = if case let .string(text)? = summary["result"] { text } else { "?" }
        let text = """

            Summary (three processes: tern signal, tern peer bob, tern peer alice)
              alice exit \(aliceStatus), bob exit \(bobStatus)
              call states (alice): \(Self.states(summary["callStates"]))
              call states (bob):   \(Self.states(bobStates))
              result: \(result)
            """
        return (.object(summary), text, passed)
    }

    private func failure(_ why: String) -> (JSONValue, String, Bool) {
        (.object(["summary": .bool(true), "result": .string(why)]), "\nSummary\n  result: \(why)", false)
    }

    /// `media.video.<key>` of a `tern peer` summary (0 when absent).
    private static func video(_ summary: [String: JSONValue], _ key: String) -> Int {
        guard case let .object(media)? = summary["media"], case let .object(video)? = media["video"],
              case let .int(value)? = video[key] else { return 0 }
        return value
    }

    private static func states(_ value: JSONValue?) -> String {
        guard case let .array(items)? = value else { return "-" }
        return items.compactMap { if case let .string(s) = $0 { s } else { nil } }.joined(separator: " → ")
    }

    /// One child process whose stdout JSON lines are relayed into the timeline.
    final class Child: Sendable {
        /// What the reader thread collects (a class: `Mutex` cannot be copied into its closure).
        private final class Collected: Sendable {
            let lines = Mutex<[[String: JSONValue]]>([])
            let summary = Mutex<JSONValue?>(nil)
        }

        private let process = Process()
        private let collected = Collected()
        let name: String

        init(name: String, arguments: [String], timeline: Timeline) {
            self.name = name
            let output = Pipe()
            process.executableURL = ProcessCall.executable
            process.arguments = arguments
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            let collected = self.collected
            let reader = output.fileHandleForReading
            Thread.detachNewThread {
                var pending = Data()
                while true {
                    let chunk = reader.availableData
                    if chunk.isEmpty { break }
                    pending.append(chunk)
                    while let newline = pending.firstIndex(of: 0x0A) {
                        let line = pending[pending.startIndex..<newline]
                        pending.removeSubrange(pending.startIndex...newline)
                        guard let object = Self.parse(line) else { continue }
                        collected.lines.withLock { $0.append(object) }
                        if object["summary"] == .bool(true) {
                            collected.summary.withLock { $0 = .object(object) }
                            continue
                        }
                        let category: String = if case let .string(c)? = object["category"] { c } else { "tern" }
                        let message: String = if case let .string(m)? = object["message"] { m }
                            else if case let .string(e)? = object["event"] { e } else { "" }
                        var fields = object
                        fields["process"] = .string(name)
                        timeline.log(category, "[\(name)] \(message)", fields: fields)
                    }
                }
            }
            do { try process.run() } catch { timeline.log("error", "could not start \(name): \(error)") }
        }

        var summary: JSONValue? { collected.summary.withLock { $0 } }

        func waitForLine(seconds: Double, where matches: ([String: JSONValue]) -> Bool) async -> [String: JSONValue]? {
            let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
            while ContinuousClock.now < deadline {
                if let line = collected.lines.withLock({ $0.first(where: matches) }) { return line }
                if !process.isRunning { return nil }
                try? await Task.sleep(for: .milliseconds(20))
            }
            return nil
        }

        /// Waits for the process to exit (killing it after `seconds`); returns its exit status.
        func wait(seconds: Double) async -> Int32 {
            let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
            while process.isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(50)) }
            stop()
            process.waitUntilExit()
            try? await Task.sleep(for: .milliseconds(100))  // the reader's last lines
            return process.terminationStatus
        }

        func stop() {
            guard process.isRunning else { return }
            kill(process.processIdentifier, SIGTERM)
        }

        private static func parse(_ line: Data) -> [String: JSONValue]? {
            guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any] else { return nil }
            return object.mapValues(JSONValue.init(any:))
        }
    }
}

extension JSONValue {
    /// A value from Foundation's JSON objects (NSNumber, NSString, arrays, dictionaries, NSNull).
    init(any value: Any) {
        switch value {
        case let string as String: self = .string(string)
        case let number as NSNumber:
            // JSONSerialization boxes `true`/`false` as NSNumber of type "c" (char).
            if String(cString: number.objCType) == "c" { self = .bool(number.boolValue) }
            else if number.doubleValue == number.doubleValue.rounded(), abs(number.doubleValue) < 1e15 { self = .int(number.intValue) }
            else { self = .number(number.doubleValue) }
        case let array as [Any]: self = .array(array.map(JSONValue.init(any:)))
        case let object as [String: Any]: self = .object(object.mapValues(JSONValue.init(any:)))
        default: self = .null
        }
    }
}
