import Foundation
import Testing

/// What `tern call --loopback --pcap FILE --report FILE.html` leaves behind, opened by the tools an
/// engineer would use: Wireshark's dissectors (tshark) and a browser engine (headless Chromium).
@Suite("tern call artifacts: the pcap in tshark, the report in Chromium", .serialized)
struct TernCallArtifactsTests {
    @Test("tshark finds the call's Opus and VP8 RTP, RTCP and SCTP in its pcap",
          .enabled(if: Self.executable("tshark") != nil, "tshark is not installed (apt-get install tshark)"))
    func pcapDecodesInTshark() async throws {
        let tshark = try #require(Self.executable("tshark"))
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pcap = directory.appendingPathComponent("call.pcap").path
        let run = try await TernCallCommandTests.run(["call", "--loopback", "--json", "--duration", "3", "--pcap", pcap])
        #expect(run.status == 0, "call failed: \(run.lines.suffix(3))")
        let summary = try #require(run.summary)
        let audioReceived = try #require((summary["media"] as? [String: Any]).flatMap { $0["audio"] as? [String: Any] }?["packetsReceived"] as? Int)

        // RTP is found by Wireshark's heuristic dissector: no port is given, so the test proves the
        // packets are recognisable RTP on the 5-tuples the call really used.
        let fields = try Self.run(tshark, ["-r", pcap, "-o", "rtp.heuristic_rtp:TRUE", "-T", "fields",
                                           "-e", "rtp.p_type", "-e", "rtcp.pt", "-e", "sctp.data_payload_proto_id"])
        #expect(fields.status == 0, "tshark failed: \(fields.err.suffix(500))")
        var opus = 0, vp8 = 0, rtcp = 0, dcep = 0, dataChannelStrings = 0
        for row in fields.out.split(separator: "\n") {
            let columns = row.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            let payloadType = columns.first ?? ""
            if payloadType == "111" { opus += 1 }
            if payloadType == "96" { vp8 += 1 }
            if columns.count > 1, !columns[1].isEmpty { rtcp += 1 }
            if columns.count > 2 {
                // RFC 8831 §8: PPID 50 is DCEP, 51 a UTF-8 string message.
                let ppids = columns[2].split(separator: ",")
                dcep += ppids.filter { $0 == "50" }.count
                dataChannelStrings += ppids.filter { $0 == "51" }.count
            }
        }
        print("tshark: Opus \(opus), VP8 \(vp8), RTCP \(rtcp), DCEP \(dcep), DC strings \(dataChannelStrings); summary audio received \(audioReceived)")
        #expect(opus >= audioReceived / 2, "the pcap should hold at least the audio one side received")
        #expect(vp8 > 10)
        #expect(rtcp > 0)
        #expect(dcep >= 2, "DATA_CHANNEL_OPEN and its ACK")
        #expect(dataChannelStrings >= 2, "manage-call messages")
    }

    @Test("headless Chromium renders the call's report: charts present, summary numbers match the JSON",
          .enabled(if: Self.executable("chromium") != nil, "chromium is not installed"))
    func reportRendersInChromium() async throws {
        let chromium = try #require(Self.executable("chromium"))
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("call.html")
        let run = try await TernCallCommandTests.run(["call", "--loopback", "--json", "--duration", "3",
                                                      "--report", report.path])
        #expect(run.status == 0, "call failed: \(run.lines.suffix(3))")
        let summary = try #require(run.summary)
        let media = try #require(summary["media"] as? [String: Any])
        let audioReceived = try #require((media["audio"] as? [String: Any])?["packetsReceived"] as? Int)
        let framesDecoded = try #require((media["video"] as? [String: Any])?["framesDecoded"] as? Int)

        let profile = directory.appendingPathComponent("profile").path
        let dump = try Self.run(chromium, ["--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(profile)",
                                           "--dump-dom", report.absoluteString], timeout: 120)
        #expect(dump.status == 0, "chromium failed: \(dump.err.suffix(1000))")
        let dom = dump.out
        #expect(dom.components(separatedBy: "<svg").count - 1 >= 3, "per-second charts")
        #expect(dom.contains("<polyline"), "chart series drawn")
        #expect(dom.contains(">\(audioReceived)<"), "audio packets received \(audioReceived) shown in the page")
        #expect(dom.contains(">\(framesDecoded)<"), "video frames decoded \(framesDecoded) shown in the page")
        #expect(dom.contains("a=fingerprint:"), "the SDPs are in the page")
        #expect(!dom.contains("<script"), "the page is static")
        // The ICE table lists every candidate of alice's agent, local and remote, with exactly
        // one selected row on each side.
        let iceTable = dom.components(separatedBy: "<section id=\"ice\">").dropFirst().first?
            .components(separatedBy: "</section>").first ?? ""
        let rows = iceTable.components(separatedBy: "<tr").dropFirst().filter { $0.contains("<td>") }
        let localRows = rows.filter { $0.contains("<td>local</td>") }, remoteRows = rows.filter { $0.contains("<td>remote</td>") }
        #expect(!localRows.isEmpty && !remoteRows.isEmpty, "candidate rows: \(rows.count)")
        #expect(localRows.filter { $0.hasPrefix(" class=\"selected\"") }.count == 1)
        #expect(remoteRows.filter { $0.hasPrefix(" class=\"selected\"") }.count == 1)

        // The chart points carry the per-second figures the JSON stats lines printed, and the
        // frames-decoded series adds up to (nearly) the summary's total: the last partial second
        // is sampled too; frames decoded between that sample and the hang-up are not.
        let points = Self.chartPoints(in: dom, series: "decoded")
        let statsLines = run.lines.compactMap { line -> [String: Any]? in
            guard line.contains("\"category\":\"stats\"") else { return nil }
            return try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }
        #expect(points.count == statsLines.count, "one chart point per stats line")
        #expect(framesDecoded - Int(points.reduce(0, +)) <= 6, "series sum \(points.reduce(0, +)) vs \(framesDecoded)")
        if let lastLine = statsLines.last?["videoFramesDecoded"] as? Int {
            #expect(Int(points.reduce(0, +)) == lastLine, "the series adds up to the last stats line's total")
        }
    }

    /// The `data-value` of every chart point of `series` in the rendered page, in order.
    static func chartPoints(in dom: String, series: String) -> [Double] {
        dom.components(separatedBy: "<circle").dropFirst().compactMap { rest -> Double? in
            // Only this element's attributes: what follows its `>` belongs to other elements.
            let element = rest.prefix { $0 != ">" }
            guard element.contains("data-series=\"\(series)\""),
                  let start = element.range(of: "data-value=\"") else { return nil }
            let rest = element[start.upperBound...]
            return rest.firstIndex(of: "\"").flatMap { Double(rest[..<$0]) }
        }
    }

    // MARK: Helpers

    static func executable(_ name: String) -> String? {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return (paths + ["/usr/bin", "/usr/sbin"]).map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tern-artifacts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    struct Output {
        var status: Int32
        var out: String
        var err: String
    }

    /// Runs a tool to completion, killing it after `timeout` seconds.
    static func run(_ path: String, _ arguments: [String], timeout: Double = 60) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outReader = Thread.detachedRead(out)
        let errReader = Thread.detachedRead(err)
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return Output(status: process.terminationStatus, out: outReader.text, err: errReader.text)
    }
}

/// Drains a pipe on its own thread so a chatty child never blocks on a full pipe.
private final class PipeDrain: @unchecked Sendable {
    // `data` is written by the reading thread and read after `done` is signalled.
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ pipe: Pipe) {
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    var text: String {
        done.wait()
        done.signal()
        return String(decoding: data, as: UTF8.self)
    }
}

private extension Thread {
    static func detachedRead(_ pipe: Pipe) -> PipeDrain { PipeDrain(pipe) }
}
