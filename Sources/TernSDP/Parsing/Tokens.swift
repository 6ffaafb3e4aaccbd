/// Small byte-level helpers shared by the SDP parsers. They work on UTF-8 code units so that
/// splitting never pays for grapheme breaking (`"\r\n"` is one `Character` in Swift).
enum Tokens {
    /// Splits on single spaces; empty fields (double spaces) are dropped, which tolerates sloppy writers.
    static func fields(_ text: Substring) -> [Substring] {
        var out: [Substring] = []
        var start = text.startIndex
        var index = text.startIndex
        let utf8 = text.utf8
        while index != text.endIndex {
            if utf8[index] == UInt8(ascii: " ") || utf8[index] == UInt8(ascii: "\t") {
                if start != index { out.append(text[start..<index]) }
                index = utf8.index(after: index)
                start = index
            } else {
                index = utf8.index(after: index)
            }
        }
        if start != text.endIndex { out.append(text[start..<text.endIndex]) }
        return out
    }

    /// Splits at the first occurrence of `byte`; nil when absent.
    static func splitOnce(_ text: Substring, at byte: UInt8) -> (Substring, Substring)? {
        guard let index = text.utf8.firstIndex(of: byte) else { return nil }
        return (text[text.startIndex..<index], text[text.utf8.index(after: index)...])
    }

    /// Splits on every occurrence of `byte`, keeping empty pieces.
    static func split(_ text: Substring, on byte: UInt8) -> [Substring] {
        var out: [Substring] = []
        var start = text.startIndex
        var index = text.startIndex
        while index != text.endIndex {
            if text.utf8[index] == byte {
                out.append(text[start..<index])
                index = text.utf8.index(after: index)
                start = index
            } else {
                index = text.utf8.index(after: index)
            }
        }
        out.append(text[start..<text.endIndex])
        return out
    }

    /// Parses an unsigned decimal number made only of ASCII digits (no sign, no spaces).
    static func number<T: FixedWidthInteger & UnsignedInteger>(_ text: Substring, as: T.Type = T.self) -> T? {
        guard !text.isEmpty else { return nil }
        var value: T = 0
        for char in text.utf8 {
            guard char >= UInt8(ascii: "0"), char <= UInt8(ascii: "9") else { return nil }
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times.addingReportingOverflow(T(char - UInt8(ascii: "0")))
            if o1 || o2 { return nil }
            value = sum
        }
        return value
    }

    /// Parses a decimal `Int` (non-negative).
    static func int(_ text: Substring) -> Int? {
        number(text, as: UInt.self).flatMap { $0 <= UInt(Int.max) ? Int($0) : nil }
    }

    /// Trims leading and trailing spaces/tabs.
    static func trimmed(_ text: Substring) -> Substring {
        var lower = text.startIndex
        var upper = text.endIndex
        while lower != upper, text.utf8[lower] == UInt8(ascii: " ") || text.utf8[lower] == UInt8(ascii: "\t") {
            lower = text.utf8.index(after: lower)
        }
        while upper != lower {
            let before = text.utf8.index(before: upper)
            guard text.utf8[before] == UInt8(ascii: " ") || text.utf8[before] == UInt8(ascii: "\t") else { break }
            upper = before
        }
        return text[lower..<upper]
    }
}
