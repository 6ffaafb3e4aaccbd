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
