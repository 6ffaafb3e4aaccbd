import Foundation
import Testing

/// `tern sdp check|show|answer|offer` run as a user runs them: a subprocess, its output and exit status.
@Suite("tern sdp (subprocess)")
struct SDPCommandTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("TernSDPTests/Fixtures")
    static let chromiumOffer = fixtures.appendingPathComponent("chromium-audio-video-data-offer.sdp").path

    static func brokenFile() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tern-sdp-\(UUID().uuidString).sdp").path
        let text = "v=0\r\no=- 1 1 IN IP4 0.0.0.0\r\ns=-\r\nt=0 0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=rtpmap:abc opus/48000\r\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func json(_ line: String?) -> [String: Any]? {
        line.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    @Test("check: a captured Chromium offer is valid, exit 0")
    func checkAcceptsARealOffer() async throws {
        let run = try await TernCallCommandTests.run(["sdp", "check", Self.chromiumOffer])
        #expect(run.status == 0)
        #expect(run.lines.first == "ok: 3 media section(s)")
        let json = try await TernCallCommandTests.run(["sdp", "check", "--json", Self.chromiumOffer])
        #expect(Self.json(json.lines.first)?["valid"] as? Bool == true)
    }

    @Test("check: a broken line is named by number and reason, exit 1")
    func checkNamesTheBrokenLine() async throws {
        let path = try Self.brokenFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try await TernCallCommandTests.run(["sdp", "check", path])
        #expect(run.status == 1)
        #expect(run.lines.first?.hasPrefix("line 6: `a=rtpmap:abc opus/48000`") == true, "\(run.lines)")
        let json = try await TernCallCommandTests.run(["sdp", "check", "--json", path])
        #expect(json.status == 1)
        let object = try #require(Self.json(json.lines.first))
        #expect(object["valid"] as? Bool == false)
        #expect(object["line"] as? Int == 6)
    }

    @Test("check: an unreadable file is exit 1 with a message")
    func checkReportsAMissingFile() async throws {
        let run = try await TernCallCommandTests.run(["sdp", "check", "/nonexistent/offer.sdp"])
        #expect(run.status == 1)
        #expect(run.lines.first?.contains("cannot read") == true)
    }

    @Test("show: sections, codecs, ICE and DTLS parameters, as text and as JSON")
    func showSummarises() async throws {
        let text = try await TernCallCommandTests.run(["sdp", "show", Self.chromiumOffer])
        #expect(text.status == 0)
        #expect(text.lines.contains { $0.contains("codec 111 opus/48000/2") })
        #expect(text.lines.contains { $0.contains("dtls fingerprint sha-256") })
        let json = try await TernCallCommandTests.run(["sdp", "show", "--json", Self.chromiumOffer])
        let object = try #require(Self.json(json.lines.first))
        let sections = try #require(object["sections"] as? [[String: Any]])
        #expect(sections.map { $0["kind"] as? String } == ["audio", "video", "application"])
        #expect((sections[0]["codecs"] as? [[String: Any]])?.first?["name"] as? String == "opus")
        #expect(sections[2]["sctpPort"] as? Int == 5000)
    }

    @Test("answer: the answer Tern would give keeps the offer's sections and payload types")
    func answerAnswers() async throws {
        let run = try await TernCallCommandTests.run(["sdp", "answer", "--seed", "7", Self.chromiumOffer])
        #expect(run.status == 0)
        // SDP lines end in CRLF, which Swift's `split(separator: "\n")` keeps as one character.
        let lines = run.lines.joined(separator: "\n").components(separatedBy: "\r\n")
        #expect(lines.filter { $0.hasPrefix("m=") }.count == 3)
        #expect(lines.contains { $0.hasPrefix("m=audio 9 UDP/TLS/RTP/SAVPF 111") })
        #expect(lines.contains("a=setup:active"))
        let json = try await TernCallCommandTests.run(["sdp", "answer", "--json", "--seed", "7", Self.chromiumOffer])
        let object = try #require(Self.json(json.lines.first))
        #expect(object["type"] as? String == "answer")
        #expect((object["sdp"] as? String)?.contains("m=application 9 UDP/DTLS/SCTP webrtc-datachannel") == true)
    }
}
