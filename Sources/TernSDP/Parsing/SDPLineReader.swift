/// One raw `<type>=<value>` line.
struct RawLine {
    /// The whole line without its line ending.
    let raw: Substring
    /// The type letter.
    let type: Character
    /// The text after `=`.
    let value: Substring
}

/// Splits text into lines on LF (dropping a preceding CR), skipping blank lines, and numbers them from 1.
/// Lines that are not `<type>=...` come back with type `"\0"` so the parser can report them.
struct SDPLineReader {
    private let text: String
    private var index: String.Index
    private var number = 0

    init(_ text: String) {
        self.text = text
        self.index = text.startIndex
    }

    mutating func next() throws(SDPParseError) -> (Int, RawLine)? {
        let utf8 = text.utf8
        while index != text.endIndex {
            number += 1
            let start = index
            var end = utf8[start...].firstIndex(of: UInt8(ascii: "\n")) ?? text.endIndex
            index = end == text.endIndex ? end : utf8.index(after: end)
            if end != start, utf8[utf8.index(before: end)] == UInt8(ascii: "\r") { end = utf8.index(before: end) }
            let raw = text[start..<end]
            if raw.isEmpty { continue }
            let bytes = raw.utf8
            guard bytes.count >= 2, bytes[bytes.index(after: bytes.startIndex)] == UInt8(ascii: "="),
                  let first = bytes.first, first < 0x80, first != UInt8(ascii: " ") else {
                throw .invalidLine(lineNumber: number, line: String(raw), reason: "expected `<type>=<value>`")
            }
            let valueStart = utf8.index(start, offsetBy: 2)
            return (number, RawLine(raw: raw, type: Character(Unicode.Scalar(first)), value: text[valueStart..<end]))
        }
        return nil
    }
}
