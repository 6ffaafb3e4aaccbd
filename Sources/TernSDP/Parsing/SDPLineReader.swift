/// One raw `<type>=<value>` line.
struct RawLine {
    /// The whole line without its line ending.
    let bytes: SDPBytes
    /// The type letter (ASCII).
    let type: UInt8
    /// 1-based line number in the description, blank lines included.
    let number: Int

    /// The text after `=`.
    var value: SDPBytes { bytes.dropFirst(2) }
    /// The whole line as text, for error messages.
    var text: String { Tokens.string(bytes) }
}

/// Splits the bytes of a description into lines on LF (dropping a preceding CR), skipping blank lines,
/// and numbers them from 1. RFC 8866 §5 asks writers for CRLF; readers should accept LF too.
struct SDPLineReader {
    private let bytes: SDPBytes
    private var position: Int
    private var number = 0

    init(_ bytes: SDPBytes) {
        self.bytes = bytes
        self.position = bytes.startIndex
    }

    /// The next non-blank line; throws when a line is not `<type>=...`.
    mutating func next() throws(SDPParseError) -> RawLine? {
        let end = bytes.endIndex
        while position < end {
            number += 1
            let start = position
            var lineEnd = Self.firstNewline(in: bytes, from: start)
            position = lineEnd < end ? lineEnd + 1 : lineEnd
            if lineEnd > start, bytes[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
            if lineEnd == start { continue }
            let line = bytes[start..<lineEnd]
            let first = bytes[start]
            guard lineEnd - start >= 2, bytes[start + 1] == UInt8(ascii: "="), first < 0x80, first != UInt8(ascii: " ") else {
                throw .invalidLine(lineNumber: number, line: Tokens.string(line), reason: "expected `<type>=<value>`")
            }
            return RawLine(bytes: line, type: first, number: number)
        }
        return nil
    }

    /// The index of the first LF at or after `start`, or `endIndex`. Eight bytes at a time: a word
    /// XOR-ed with eight LFs has a zero byte where an LF was, and `(x - 0x01…) & ~x & 0x80…` flags
    /// the lowest zero byte (the classic "has zero byte" test).
    private static func firstNewline(in bytes: SDPBytes, from start: Int) -> Int {
        let end = bytes.endIndex
        var index = start
        let base = UnsafeRawBufferPointer(bytes.base)
        while end - index >= 8 {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let x = word ^ 0x0A0A_0A0A_0A0A_0A0A
            let found = (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
            if found != 0 { return index + found.trailingZeroBitCount / 8 }
            index += 8
        }
        while index < end, bytes[index] != UInt8(ascii: "\n") { index += 1 }
        return index
    }

    /// The number the next line will have if it follows directly.
    var nextLineNumber: Int { number + 1 }
}
