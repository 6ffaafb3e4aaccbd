import Testing
import TernCall
import TernSignaling
import TernCore

@Suite("manage-call envelopes")
struct ManageCallEnvelopeTests {
    static let golden = #"{"eventType":"sendMessage","manageCallEventData":[{"dataName":"processName","dataValue":"CustOnboarding"}]}"#

    @Test("sendMessage encodes byte-exact")
    func goldenEncode() {
        let envelope = ManageCallEnvelope(eventType: "sendMessage",
                                          data: [AttachedData(dataName: "processName", dataValue: "CustOnboarding")])
        #expect(envelope.encoded() == Array(Self.golden.utf8))
    }

    @Test("the golden bytes decode to the same envelope")
    func goldenDecode() throws {
        let envelope = try ManageCallEnvelope.decode(Array(Self.golden.utf8))
        #expect(envelope == ManageCallEnvelope(eventType: "sendMessage",
                                               data: [AttachedData(dataName: "processName", dataValue: "CustOnboarding")]))
    }

    @Test("strings are escaped per RFC 8259 §7 and round-trip")
    func escaping() throws {
        let value = "say \"hi\"\\ \n\t\r\u{08}\u{0C}\u{01}\u{1F} / é 😀"
        let envelope = ManageCallEnvelope(eventType: "sendMessage", data: [AttachedData(dataName: "k", dataValue: value)])
        let text = String(decoding: envelope.encoded(), as: UTF8.self)
        #expect(text == #"{"eventType":"sendMessage","manageCallEventData":[{"dataName":"k","dataValue":"say \"hi\"\\ \n\t\r\b\f\u0001\u001f / é 😀"}]}"#)
        #expect(try ManageCallEnvelope.decode(envelope.encoded()) == envelope)
    }

    @Test("decoding accepts whitespace, any key order, unknown keys, \\u escapes and surrogate pairs")
    func lenientButValidDecode() throws {
        let text = #" { "extra" : [1, -2.5e+3, true, null], "manageCallEventData" : [ { "dataValue":"\u00e9\ud83d\ude00\/", "dataName":"n" } ], "eventType":"callMinimized" } "#
        let envelope = try ManageCallEnvelope.decode(Array(text.utf8))
        #expect(envelope == ManageCallEnvelope(eventType: "callMinimized", data: [AttachedData(dataName: "n", dataValue: "é😀/")]))
        #expect(try ManageCallEnvelope.decode(Array(#"{"eventType":"callMinimized"}"#.utf8)).data.isEmpty)
    }

    @Test("malformed envelopes throw typed errors", arguments: [
        "", "not json", "{", #"{"eventType":1}"#, #"{"eventType":""}"#, "[]", #"{"manageCallEventData":[]}"#,
        #"{"eventType":"sendMessage","manageCallEventData":{}}"#,
        #"{"eventType":"sendMessage","manageCallEventData":[{"dataName":"a"}]}"#,
        #"{"eventType":"sendMessage","manageCallEventData":[{"dataName":"a","dataValue":3}]}"#,
        #"{"eventType":"a","eventType":"b"}"#, #"{"eventType":"a"} x"#, #"{"eventType":"\ud800"}"#,
        #"{"eventType":"\udc00x"}"#, #"{"eventType":"\x"}"#, #"{"eventType":"a\u00"}"#, "{\"eventType\":\"a\nb\"}",
        #"{"eventType":"a","n":01}"#, #"{"eventType":"a","n":-}"#, #"{"eventType":"a","n":1.}"#, #"{"eventType":"a",}"#,
        #"{"eventType":"a","n":tru}"#,
    ])
    func malformed(text: String) {
        #expect(throws: ManageCallError.self) { try ManageCallEnvelope.decode(Array(text.utf8)) }
    }

    @Test("deep nesting is refused at the depth limit, not by exhausting the stack")
    func deepNesting() {
        let bytes = Array(#"{"eventType":"a","x":"#.utf8) + Array(repeating: UInt8(ascii: "["), count: 60_000)
        #expect(throws: ManageCallError.malformed("nesting deeper than 16 levels")) {
            try ManageCallEnvelope.decode(bytes)
        }
    }

    @Test("invalid UTF-8 inside a string is refused")
    func invalidUTF8() {
        let bytes = Array(#"{"eventType":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        #expect(throws: ManageCallError.malformed("invalid UTF-8 in the string starting at offset 13")) {
            try ManageCallEnvelope.decode(bytes)
        }
    }

    @Test("more than 64 KiB is refused before parsing")
    func oversized() {
        let value = String(repeating: "x", count: ManageCallEnvelope.maximumSize)
        let bytes = ManageCallEnvelope(eventType: "sendMessage", data: [AttachedData(dataName: "k", dataValue: value)]).encoded()
        #expect(throws: ManageCallError.tooLarge(size: bytes.count, limit: 65_536)) {
            try ManageCallEnvelope.decode(bytes)
        }
    }

    @Test("random and mutated inputs never trap (deterministic fuzz)")
    func fuzz() {
        var random = SeededRandom(seed: 0x7E57)
        let golden = Array(Self.golden.utf8)
        let alphabet = Array(#"{}[]":,\u0123456789abcdefnrtl-+.eE "#.utf8) + [0x00, 0x80, 0xC3, 0xFF, 0xED]
        var decoded = 0
        for round in 0..<3000 {
            var bytes: [UInt8]
            if round % 2 == 0 {
                bytes = golden
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    let index = Int.random(in: 0..<bytes.count, using: &random)
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: bytes[index] = alphabet.randomElement(using: &random) ?? 0
                    case 1: bytes.remove(at: index)
                    default: bytes.insert(alphabet.randomElement(using: &random) ?? 0, at: index)
                    }
                    if bytes.isEmpty { break }
                }
            } else {
                bytes = (0..<Int.random(in: 0...64, using: &random)).map { _ in
                    alphabet.randomElement(using: &random) ?? 0
                }
            }
            if (try? ManageCallEnvelope.decode(bytes)) != nil { decoded += 1 }
        }
        #expect(decoded > 0, "some mutations stay valid JSON")
        #expect(decoded < 3000)
    }
}
