/// A small strict JSON writer and reader (RFC 8259) for the manage-call envelopes.
///
/// Writing is byte-exact: no spaces, keys in the order given, strings escaped per
/// RFC 8259 §7 (`"` `\` and U+0000–U+001F; `/` and non-ASCII are written as UTF-8).
/// Reading never traps on hostile input: bounded nesting depth, UTF-8 validated,
/// lone surrogates, trailing bytes and duplicate keys refused.
enum JSONText {
    /// A parsed JSON value. Numbers keep their text (the envelopes carry none).
    indirect enum Value: Equatable {
        case string(String)
        case number(String)
        case bool(Bool)
        case null
        case array([Value])
        case object([(String, Value)])

        static func == (lhs: Value, rhs: Value) -> Bool {
            switch (lhs, rhs) {
            case (.string(let a), .string(let b)), (.number(let a), .number(let b)): a == b
            case (.bool(let a), .bool(let b)): a == b
            case (.null, .null): true
            case (.array(let a), .array(let b)): a == b
            case (.object(let a), .object(let b)):
                a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
            default: false
            }
        }
    }

    /// Appends `string` as a JSON string literal (RFC 8259 §7).
    static func appendString(_ string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): out.append(contentsOf: [0x5C, 0x5C])
            case 0x08: out.append(contentsOf: [0x5C, UInt8(ascii: "b")])
            case 0x0C: out.append(contentsOf: [0x5C, UInt8(ascii: "f")])
            case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x00..<0x20:
                out.append(contentsOf: Array("\\u00".utf8))
                out.append(hexDigit(byte >> 4))
                out.append(hexDigit(byte & 0x0F))
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    /// Parses one JSON text (RFC 8259 §2) that must fill `bytes` entirely.
    static func parse(_ bytes: [UInt8], maxDepth: Int = 16) throws(JSONTextError) -> Value {
        var parser = Parser(bytes: bytes, maxDepth: maxDepth)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.offset == bytes.count else { throw .trailingBytes(offset: parser.offset) }
        return value
    }
}
