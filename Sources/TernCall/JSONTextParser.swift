extension JSONText {
    /// A recursive-descent reader over bytes; recursion is bounded by `maxDepth`.
    struct Parser {
        let bytes: [UInt8]
        let maxDepth: Int
        var offset = 0

        init(bytes: [UInt8], maxDepth: Int) {
            self.bytes = bytes
            self.maxDepth = maxDepth
        }

        /// RFC 8259 §2: `ws = *( %x20 / %x09 / %x0A / %x0D )`.
        mutating func skipWhitespace() {
            while offset < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[offset]) { offset += 1 }
        }

        private func peek() throws(JSONTextError) -> UInt8 {
            guard offset < bytes.count else { throw .unexpectedEnd }
            return bytes[offset]
        }

        private mutating func expect(_ byte: UInt8) throws(JSONTextError) {
            let found = try peek()
            guard found == byte else { throw .unexpectedByte(found, offset: offset) }
            offset += 1
        }

        private mutating func expectLiteral(_ text: String) throws(JSONTextError) {
            for byte in text.utf8 { try expect(byte) }
        }

        mutating func parseValue(depth: Int) throws(JSONTextError) -> Value {
            guard depth < maxDepth else { throw .tooDeep(limit: maxDepth) }
            let byte = try peek()
            switch byte {
            case UInt8(ascii: "{"): return try parseObject(depth: depth)
            case UInt8(ascii: "["): return try parseArray(depth: depth)
            case UInt8(ascii: "\""): return .string(try parseString())
            case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
            case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
            case UInt8(ascii: "n"): try expectLiteral("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
            default: throw .unexpectedByte(byte, offset: offset)
            }
        }

        private mutating func parseObject(depth: Int) throws(JSONTextError) -> Value {
            try expect(UInt8(ascii: "{"))
            var members: [(String, Value)] = []
            skipWhitespace()
            if try peek() == UInt8(ascii: "}") { offset += 1; return .object(members) }
            while true {
                skipWhitespace()
                let key = try parseString()
                guard !members.contains(where: { $0.0 == key }) else { throw .duplicateKey(key) }
                skipWhitespace()
                try expect(UInt8(ascii: ":"))
                skipWhitespace()
                members.append((key, try parseValue(depth: depth + 1)))
                skipWhitespace()
                let next = try peek()
                offset += 1
                if next == UInt8(ascii: "}") { return .object(members) }
                guard next == UInt8(ascii: ",") else { throw .unexpectedByte(next, offset: offset - 1) }
            }
        }

        private mutating func parseArray(depth: Int) throws(JSONTextError) -> Value {
            try expect(UInt8(ascii: "["))
            var elements: [Value] = []
            skipWhitespace()
            if try peek() == UInt8(ascii: "]") { offset += 1; return .array(elements) }
            while true {
                skipWhitespace()
                elements.append(try parseValue(depth: depth + 1))
                skipWhitespace()
                let next = try peek()
                offset += 1
                if next == UInt8(ascii: "]") { return .array(elements) }
                guard next == UInt8(ascii: ",") else { throw .unexpectedByte(next, offset: offset - 1) }
            }
        }

        /// RFC 8259 §6: `[ minus ] int [ frac ] [ exp ]`, kept as text.
        private mutating func parseNumber() throws(JSONTextError) -> String {
            let start = offset
            if try peek() == UInt8(ascii: "-") { offset += 1 }
            let first = try peek()
            if first == UInt8(ascii: "0") {
                offset += 1
            } else {
                guard isDigit(first) else { throw .unexpectedByte(first, offset: offset) }
                skipDigits()
            }
            if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
                offset += 1
                try requireDigit()
                skipDigits()
            }
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E") {
                offset += 1
                if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") {
                    offset += 1
                }
                try requireDigit()
                skipDigits()
            }
            return String(decoding: bytes[start..<offset], as: UTF8.self)
        }

        private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

        private mutating func skipDigits() {
            while offset < bytes.count, isDigit(bytes[offset]) { offset += 1 }
        }

        private func requireDigit() throws(JSONTextError) {
            let byte = try peek()
            guard isDigit(byte) else { throw .unexpectedByte(byte, offset: offset) }
        }

        /// RFC 8259 §7: a string, with escapes decoded and the UTF-8 validated.
        private mutating func parseString() throws(JSONTextError) -> String {
            let start = offset
            try expect(UInt8(ascii: "\""))
            var utf8: [UInt8] = []
            while true {
                let byte = try peek()
                offset += 1
                switch byte {
                case UInt8(ascii: "\""):
                    guard let text = String(validating: utf8, as: UTF8.self) else { throw .invalidUTF8(offset: start) }
                    return text
                case UInt8(ascii: "\\"):
                    try parseEscape(into: &utf8)
                case 0x00..<0x20:
                    throw .controlCharacterInString(offset: offset - 1)
                default:
                    utf8.append(byte)
                }
            }
        }

        private mutating func parseEscape(into utf8: inout [UInt8]) throws(JSONTextError) {
            let escapeOffset = offset - 1
            let byte = try peek()
            offset += 1
            switch byte {
            case UInt8(ascii: "\""): utf8.append(0x22)
            case UInt8(ascii: "\\"): utf8.append(0x5C)
            case UInt8(ascii: "/"): utf8.append(0x2F)
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try parseHex4()
                if (0xD800...0xDBFF).contains(scalar) {
                    guard offset + 1 < bytes.count, bytes[offset] == 0x5C, bytes[offset + 1] == UInt8(ascii: "u") else {
                        throw .loneSurrogate(offset: escapeOffset)
                    }
                    offset += 2
                    let low = try parseHex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw .loneSurrogate(offset: escapeOffset) }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw .loneSurrogate(offset: escapeOffset)
                }
                guard let unicode = Unicode.Scalar(scalar) else { throw .invalidEscape(offset: escapeOffset) }
                utf8.append(contentsOf: Array(String(Character(unicode)).utf8))
            default:
                throw .invalidEscape(offset: escapeOffset)
            }
        }

        private mutating func parseHex4() throws(JSONTextError) -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = try peek()
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
                default: throw .invalidEscape(offset: offset)
                }
                value = value << 4 | digit
                offset += 1
            }
            return value
        }
    }
}
