/// The bytes of one SDP line or value: a slice of the UTF-8 storage of the text being parsed, valid only
/// inside `Tokens.withBytes` (the parser holds the whole description's storage for the whole parse).
///
/// SDP's grammar (RFC 8866 §9) is ASCII, so every parser here scans bytes with integer indices and
/// makes a `String` only for the values it keeps. That is what makes a round trip cost microseconds:
/// `Substring` indexing pays for index validation and scalar alignment on every step, and array slices
/// pay a reference-count operation each time one is made. Every index is checked against the slice's
/// bounds before it is read (the scanners below compare with `endIndex` first); the fuzz targets run
/// these parsers under AddressSanitizer.
typealias SDPBytes = Slice<UnsafeBufferPointer<UInt8>>

/// Small byte-level helpers shared by the SDP parsers.
enum Tokens {
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")

    /// Runs `body` over the UTF-8 bytes of `text` (no copy for native strings).
    static func withBytes<R, E: Error>(_ text: Substring, _ body: (SDPBytes) throws(E) -> R) throws(E) -> R {
        let result = text.utf8.withContiguousStorageIfAvailable { buffer in
            Result { () throws(E) -> R in try body(buffer[...]) }
        }
        if let result { return try result.get() }
        var copy = String(text)
        return try copy.withUTF8 { buffer in Result { () throws(E) -> R in try body(buffer[...]) } }.get()
    }

    /// Runs `body` over the UTF-8 bytes of `text`.
    static func withBytes<R, E: Error>(_ text: String, _ body: (SDPBytes) throws(E) -> R) throws(E) -> R {
        let result = text.utf8.withContiguousStorageIfAvailable { buffer in
            Result { () throws(E) -> R in try body(buffer[...]) }
        }
        if let result { return try result.get() }
        var copy = text
        return try copy.withUTF8 { buffer in Result { () throws(E) -> R in try body(buffer[...]) } }.get()
    }

    /// The bytes as a `String` (invalid UTF-8 is repaired; the parser validated the whole text first).
    @inline(__always)
    static func string(_ bytes: SDPBytes) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes), as: UTF8.self) }

    /// A stored decimal value as a number (digits only, as `number(_:as:)`).
    static func number<T: FixedWidthInteger & UnsignedInteger>(_ text: String, as: T.Type = T.self) -> T? {
        withBytes(text) { number($0, as: T.self) }
    }

    /// A stored decimal value as an `Int` (digits only).
    static func int(_ text: String) -> Int? { withBytes(text) { int($0) } }

    /// True when the bytes spell `literal` exactly (ASCII, case-sensitive).
    @inline(__always)
    static func equals(_ bytes: SDPBytes, _ literal: StaticString) -> Bool {
        guard bytes.count == literal.utf8CodeUnitCount else { return false }
        return literal.withUTF8Buffer { expected in
            var index = bytes.startIndex
            for byte in expected {  // counts are equal, so `index` stays below `endIndex`
                guard bytes[index] == byte else { return false }
                index += 1
            }
            return true
        }
    }

    /// True when the bytes spell `literal` ignoring ASCII case.
    static func equalsIgnoringCase(_ bytes: SDPBytes, _ literal: StaticString) -> Bool {
        guard bytes.count == literal.utf8CodeUnitCount else { return false }
        return literal.withUTF8Buffer { expected in
            zip(bytes, expected).allSatisfy { lowercased($0) == lowercased($1) }
        }
    }

    /// True when the bytes start with `literal`.
    static func hasPrefix(_ bytes: SDPBytes, _ literal: StaticString) -> Bool {
        guard bytes.count >= literal.utf8CodeUnitCount else { return false }
        return literal.withUTF8Buffer { UnsafeBufferPointer(rebasing: bytes.prefix($0.count)).elementsEqual($0) }
    }

    @inline(__always)
    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    /// Splits on spaces/tabs; empty fields (double spaces) are dropped, which tolerates sloppy writers.
    static func fields(_ text: SDPBytes) -> [SDPBytes] {
        var out: [SDPBytes] = []
        var scanner = FieldScanner(text)
        while let field = scanner.next() { out.append(field) }
        return out
    }

    /// Splits at the first occurrence of `byte`; nil when absent.
    @inline(__always)
    static func splitOnce(_ text: SDPBytes, at byte: UInt8) -> (SDPBytes, SDPBytes)? {
        var index = text.startIndex
        while index < text.endIndex, text[index] != byte { index += 1 }
        guard index < text.endIndex else { return nil }
        return (text[text.startIndex..<index], text[(index + 1)...])
    }

    /// Splits on every occurrence of `byte`, keeping empty pieces.
    static func split(_ text: SDPBytes, on byte: UInt8) -> [SDPBytes] {
        text.split(separator: byte, omittingEmptySubsequences: false)
    }

    /// Parses an unsigned decimal number made only of ASCII digits (no sign, no spaces).
    static func number<T: FixedWidthInteger & UnsignedInteger>(_ text: SDPBytes, as: T.Type = T.self) -> T? {
        guard !text.isEmpty else { return nil }
        var value: T = 0
        for char in text {
            let digit = char &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times.addingReportingOverflow(T(digit))
            if o1 || o2 { return nil }
            value = sum
        }
        return value
    }

    /// Parses a decimal `Int` (non-negative).
    static func int(_ text: SDPBytes) -> Int? {
        number(text, as: UInt.self).flatMap { $0 <= UInt(Int.max) ? Int($0) : nil }
    }

    /// Trims leading and trailing spaces/tabs.
    static func trimmed(_ text: SDPBytes) -> SDPBytes {
        var lower = text.startIndex
        var upper = text.endIndex
        while lower < upper, text[lower] == space || text[lower] == tab { lower += 1 }
        while upper > lower, text[upper - 1] == space || text[upper - 1] == tab { upper -= 1 }
        return text[lower..<upper]
    }
}

/// Walks the space-separated fields of a value one at a time, without building an array.
struct FieldScanner {
    private let text: SDPBytes
    private var position: Int

    init(_ text: SDPBytes) {
        self.text = text
        self.position = text.startIndex
    }

    /// The next non-empty field, or nil at the end.
    mutating func next() -> SDPBytes? {
        let end = text.endIndex
        while position < end, text[position] == Tokens.space || text[position] == Tokens.tab { position += 1 }
        guard position < end else { return nil }
        let start = position
        while position < end, text[position] != Tokens.space, text[position] != Tokens.tab { position += 1 }
        return text[start..<position]
    }

    /// Everything after the current field, trimmed; empty at the end.
    var rest: SDPBytes { Tokens.trimmed(text[position...]) }
}
