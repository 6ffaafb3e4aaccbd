import Testing
import TernCore

@Suite("LogText: network text made safe for a log line")
struct LogTextTests {
    @Test("control characters, separators and bidi overrides are written as escapes; other text is kept")
    func escapes() {
        #expect(LogText.escaped("alice") == "alice")
        #expect(LogText.escaped("a\nb\r\u{1B}[31mred") == "a\\u{A}b\\u{D}\\u{1B}[31mred")
        #expect(LogText.escaped("user\u{202E}gpj.exe") == "user\\u{202E}gpj.exe")
        #expect(LogText.escaped("x\u{2028}y\u{85}z\u{7F}") == "x\\u{2028}y\\u{85}z\\u{7F}")
        #expect(LogText.escaped("Grüße ✓ 🐦") == "Grüße ✓ 🐦")
    }

    @Test("long text is cut at the limit and marked")
    func cut() {
        #expect(LogText.escaped(String(repeating: "a", count: 10), limit: 4) == "aaaa…")
        #expect(LogText.escaped(String(repeating: "a", count: 4), limit: 4) == "aaaa")
    }

    @Test("a=ice-pwd values are replaced by their length; the rest of the description and its CRLFs stay")
    func iceSecretsLeftOut() {
        let sdp = "v=0\r\na=ice-ufrag:abcd\r\na=ice-pwd:0123456789abcdef012345\r\na=mid:0\r\n"
        #expect(LogText.redactingICEPasswords(sdp) == "v=0\r\na=ice-ufrag:abcd\r\na=ice-pwd:(redacted, 22 characters)\r\na=mid:0\r\n")
    }
}
