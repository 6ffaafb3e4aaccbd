import Testing
import TernSDP

@Suite("Bounded work")
struct SizeLimitTests {
    static let head = "v=0\r\no=- 1 1 IN IP4 0.0.0.0\r\ns=-\r\nt=0 0\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\n"

    @Test("a description over the limit is refused before parsing")
    func overLimit() {
        let text = Self.head + String(repeating: "a=x-pad:0123456789\r\n", count: 14_000)
        #expect(text.utf8.count > SDPParser.defaultMaxSize)
        #expect(throws: SDPParseError.tooLarge(size: text.utf8.count, limit: 262_144)) { try SDPParser().parse(text) }
        #expect(throws: SDPParseError.tooLarge(size: text.utf8.count, limit: 262_144)) {
            try SDPParser().parse(bytes: Array(text.utf8))
        }
        let error = SDPParseError.tooLarge(size: 300_000, limit: 262_144)
        #expect(error.description == "description is 300000 bytes, over the 262144-byte limit")
    }

    @Test("the limit is configurable")
    func configurable() throws {
        #expect(throws: SDPParseError.tooLarge(size: Self.head.utf8.count, limit: 10)) {
            try SDPParser(maxSize: 10).parse(Self.head)
        }
        let text = Self.head + String(repeating: "a=x-pad:0123456789\r\n", count: 14_000)
        #expect(try SDPParser(maxSize: 1 << 20).parse(text).media[0].lines.count == 14_000)
    }

    @Test("20,000 repeated attribute lines under the limit parse and round-trip")
    func manyLines() throws {
        let text = Self.head + String(repeating: "a=rtcp-mux\r\n", count: 20_000)
        #expect(text.utf8.count < SDPParser.defaultMaxSize)
        let parsed = try SDPParser().parse(text)
        #expect(parsed.media[0].attributes(named: "rtcp-mux").count == 20_000)
        #expect(parsed.text == text)
    }
}

@Suite("Hostile descriptions")
struct HostileDescriptionTests {
    static let head = "v=0\r\no=- 1 1 IN IP4 0.0.0.0\r\ns=-\r\nt=0 0\r\n"

    @Test("8,000 m= sections are refused at the 257th, naming the line, before any of them is negotiated")
    func thousandsOfSections() throws {
        let section = "m=audio 9 RTP/AVP 0\r\n"
        let text = Self.head + String(repeating: section, count: 8_000)
        #expect(text.utf8.count < SDPParser.defaultMaxSize)
        do throws(SDPParseError) {
            _ = try SDPParser().parse(text)
            Issue.record("8,000 sections were accepted")
        } catch {
            #expect(error.lineNumber == 4 + 257)
            #expect(error.description.contains("more than 256 m= sections"))
        }
        // Exactly at the limit still parses; the limit is configurable.
        #expect(try SDPParser().parse(Self.head + String(repeating: section, count: 256)).media.count == 256)
        #expect(throws: SDPParseError.self) { try SDPParser(maxMediaSections: 2).parse(Self.head + String(repeating: section, count: 3)) }
    }

    @Test("c= with an address type other than IP4/IP6 is refused naming the line")
    func unknownAddressType() throws {
        let text = Self.head + "m=audio 9 UDP/TLS/RTP/SAVPF 111\r\nc=IN IP5 0.0.0.0\r\n"
        do throws(SDPParseError) {
            _ = try SDPParser().parse(text)
            Issue.record("c=IN IP5 was accepted")
        } catch {
            #expect(error.lineNumber == 6)
            #expect(error.description.contains("unknown address type `IP5`"))
        }
        #expect(try SDPParser().parse(Self.head + "m=audio 9 UDP/TLS/RTP/SAVPF 111\r\nc=IN IP6 ::\r\n").media.count == 1)
    }

    /// A captured Chromium offer with its BUNDLE line replaced.
    private func offer(bundle: String) throws -> String {
        let text = try #require(FixtureLoader.named("chromium-audio-video-data-offer.sdp"))
        let lines = text.components(separatedBy: "\r\n").map { $0.hasPrefix("a=group:BUNDLE") ? bundle : $0 }
        return lines.joined(separator: "\r\n")
    }

    @Test("a BUNDLE group naming a mid twice, or a mid no section has, is refused naming the group",
          arguments: ["a=group:BUNDLE 0 1 2 1", "a=group:BUNDLE 0 1 2 7"])
    func badBundleGroups(line: String) throws {
        var session = TestIdentity.session(seed: 5)
        let hostile = try offer(bundle: line)
        do throws(JSEPError) {
            try session.setRemoteDescription(JSEPDescription(type: .offer, sdp: hostile))
            Issue.record("\(line) was accepted")
        } catch {
            #expect(error.name == .invalidAccess)
            #expect(error.message.contains(line))
        }
        #expect(session.signalingState == .stable)
        // The same offer with a sound group applies.
        try session.setRemoteDescription(JSEPDescription(type: .offer, sdp: try offer(bundle: "a=group:BUNDLE 0 1 2")))
        #expect(session.signalingState == .haveRemoteOffer)
    }
}
