import Testing
import TernSDP

@Suite("Parse errors name the line and the problem")
struct ParseErrorTests {
    static let head = "v=0\r\no=- 1 1 IN IP4 0.0.0.0\r\ns=-\r\nt=0 0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=mid:0\r\n"

    @Test("the example from the issue reads exactly as specified")
    func example() {
        let text = Self.head + "a=rtpmap:abc opus/48000\r\n"
        #expect(throws: SDPParseError.invalidLine(lineNumber: 7, line: "a=rtpmap:abc opus/48000",
                                                  reason: "payload type is not a number")) {
            try SDPParser().parse(text)
        }
        do {
            _ = try SDPParser().parse(text)
        } catch {
            #expect(error.description == "line 7: `a=rtpmap:abc opus/48000`: payload type is not a number")
            #expect(error.lineNumber == 7)
        }
    }

    @Test("malformed lines are reported with their number", arguments: [
        ("a=rtpmap:111 opus/fast", "clock rate is not a number"),
        ("a=rtpmap:200 opus/48000", "payload type is not a number"),
        ("a=fmtp:x apt=1", "payload type is not a number"),
        ("a=rtcp-fb:a nack", "payload type is not a number or `*`"),
        ("a=extmap:one urn:x", "extension id is not a number"),
        ("a=extmap:1/sideways urn:x", "unknown direction `sideways`"),
        ("a=ssrc:99999999999 cname:x", "SSRC is not a 32-bit number"),
        ("a=ssrc-group:FID 1 x", "SSRC `x` is not a 32-bit number"),
        ("a=fingerprint:sha-256 ZZ:00", "fingerprint is not colon-separated hex bytes"),
        ("a=fingerprint:sha-256", "expected `<hash function> <fingerprint>`"),
        ("a=setup:sometimes", "setup role must be actpass, active, passive or holdconn"),
        ("a=sctp-port:fivethousand", "SCTP port is not a number"),
        ("a=max-message-size:-1", "max message size is not a number"),
        ("a=candidate:1 1 udp 1 1.2.3.4 99999 typ host", "port is not a number between 0 and 65535"),
        ("a=candidate:1 1 udp 1 1.2.3.4 9 type host", "expected `typ` after the port"),
        ("a=mid:", "mid is empty"),
        ("a=ice-ufrag", "`ice-ufrag` needs a value"),
        ("a=rid:a sideways", "rid direction must be send or recv"),
        ("a=:value", "attribute name is empty"),
        ("b=AS:lots", "bandwidth is not a number"),
        ("c=IN IP4", "expected `<nettype> <addrtype> <address>`"),
        ("t=0 0", "`t=` is only allowed at session level"),
        ("m=audio port RTP/AVP 0", "port is not a number between 0 and 65535"),
        ("m=audio 9", "expected `<media> <port> <proto> <fmt> ...`"),
        ("o=- 1 1 IN IP4 0.0.0.0", "`o=` may appear only once, at the start"),
        ("not an sdp line", "expected `<type>=<value>`"),
    ])
    func malformed(line: String, reason: String) {
        #expect(throws: SDPParseError.invalidLine(lineNumber: 7, line: line, reason: reason)) {
            try SDPParser().parse(Self.head + line + "\r\n")
        }
    }

    @Test("missing or misplaced mandatory lines")
    func mandatory() {
        #expect(throws: SDPParseError.empty) { try SDPParser().parse("") }
        #expect(throws: SDPParseError.empty) { try SDPParser().parse("\r\n\r\n") }
        #expect(throws: SDPParseError.missingLine(type: "v", lineNumber: 1)) { try SDPParser().parse("o=- 1 1 IN IP4 0.0.0.0\r\n") }
        #expect(throws: SDPParseError.missingLine(type: "s", lineNumber: 3)) {
            try SDPParser().parse("v=0\r\no=- 1 1 IN IP4 0.0.0.0\r\nt=0 0\r\n")
        }
        #expect(throws: SDPParseError.invalidLine(lineNumber: 1, line: "v=1", reason: "protocol version must be 0")) {
            try SDPParser().parse("v=1\r\n")
        }
        #expect(throws: SDPParseError.invalidLine(lineNumber: 2, line: "o=- 1 IN IP4", reason: "expected 6 fields, found 4")) {
            try SDPParser().parse("v=0\r\no=- 1 IN IP4\r\ns=-\r\n")
        }
    }

    @Test("line numbers count blank lines too")
    func blankLinesCounted() {
        let text = "v=0\r\n\r\no=- 1 1 IN IP4 0.0.0.0\r\ns=-\r\na=setup:nope\r\n"
        #expect(throws: SDPParseError.invalidLine(lineNumber: 5, line: "a=setup:nope",
                                                  reason: "setup role must be actpass, active, passive or holdconn")) {
            try SDPParser().parse(text)
        }
    }
}
