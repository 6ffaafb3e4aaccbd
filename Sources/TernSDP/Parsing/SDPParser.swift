/// Parses SDP text (RFC 8866 §5) into a `SessionDescription`.
///
/// - Work is linear in the input: the UTF-8 storage is split into lines in one pass and each line is
///   scanned once more by the grammar of its type. Attributes keep slices of the text (no copy per line).
/// - Input over `maxSize` bytes is refused before parsing (default 256 KiB), and a description with
///   more than `maxMediaSections` m= sections at the first m= line past the limit (default 256).
/// - CRLF and bare LF line endings are both accepted (RFC 8866 §5 asks writers for CRLF; readers should
///   accept LF). Blank lines are skipped.
/// - Attributes WebRTC uses are validated (`AttributeGrammar`); unknown attributes and line types are
///   kept verbatim.
public struct SDPParser: Sendable {
    /// Largest accepted description, in bytes.
    public var maxSize: Int

    /// Most m= sections accepted. Every section becomes a transceiver or a data channel
    /// transport to negotiate and validate; a peer sending thousands would make each offer/answer
    /// a long computation. Browsers cap their transceivers too; 256 is far above any real call.
    public var maxMediaSections: Int

    /// Default size limit: 256 KiB.
    public static let defaultMaxSize = 256 * 1024

    /// Default m= section limit.
    public static let defaultMaxMediaSections = 256

    /// Creates a parser with a size limit and an m= section limit.
    public init(maxSize: Int = SDPParser.defaultMaxSize, maxMediaSections: Int = SDPParser.defaultMaxMediaSections) {
        self.maxSize = maxSize
        self.maxMediaSections = maxMediaSections
    }

    /// Parses UTF-8 bytes.
    public func parse(bytes: some Collection<UInt8>) throws(SDPParseError) -> SessionDescription {
        guard bytes.count <= maxSize else { throw .tooLarge(size: bytes.count, limit: maxSize) }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .notUTF8 }
        return try parse(text)
    }

    /// Parses SDP text.
    public func parse(_ text: String) throws(SDPParseError) -> SessionDescription {
        let size = text.utf8.count
        guard size <= maxSize else { throw .tooLarge(size: size, limit: maxSize) }
        return try Tokens.withBytes(text) { bytes throws(SDPParseError) in try parse(text, bytes: bytes) }
    }

    /// `bytes` is the UTF-8 storage of `text`, starting at offset 0.
    private func parse(_ text: String, bytes: SDPBytes) throws(SDPParseError) -> SessionDescription {
        var lines = SDPLineReader(bytes)
        guard let first = try lines.next() else { throw .empty }
        guard first.type == UInt8(ascii: "v") else { throw .missingLine(type: "v", lineNumber: first.number) }
        guard Tokens.equals(first.value, "0") else { throw invalid(first, "protocol version must be 0") }
        guard let second = try lines.next() else { throw .missingLine(type: "o", lineNumber: lines.nextLineNumber) }
        guard second.type == UInt8(ascii: "o") else { throw .missingLine(type: "o", lineNumber: second.number) }
        let origin = try checked(second) { v throws(SDPValueError) in try Origin(parsing: v) }
        guard let third = try lines.next() else { throw .missingLine(type: "s", lineNumber: lines.nextLineNumber) }
        guard third.type == UInt8(ascii: "s") else { throw .missingLine(type: "s", lineNumber: third.number) }

        var sessionLines: [SDPLine] = []
        sessionLines.reserveCapacity(16)
        var media: [MediaDescription] = []
        // The section being read: its m= line and the lines after it, appended when the next one starts.
        var mediaLine = MediaLine(media: "", port: 0, proto: "", formats: [])
        var inMedia = false
        var sectionLines: [SDPLine] = []
        while let line = try lines.next() {
            if line.type == UInt8(ascii: "m") {
                let next = try checked(line) { v throws(SDPValueError) in try MediaLine(parsing: v) }
                if inMedia { media.append(MediaDescription(mediaLine: mediaLine, lines: sectionLines)) }
                guard media.count < maxMediaSections else {
                    throw invalid(line, "more than \(maxMediaSections) m= sections (SDPParser.maxMediaSections)")
                }
                mediaLine = next
                inMedia = true
                sectionLines = []
                sectionLines.reserveCapacity(64)
                continue
            }
            let parsed = try parseLine(line, of: text, inMedia: inMedia)
            if inMedia {
                sectionLines.append(parsed)
            } else {
                sessionLines.append(parsed)
            }
        }
        if inMedia { media.append(MediaDescription(mediaLine: mediaLine, lines: sectionLines)) }
        return SessionDescription(origin: origin, sessionName: Tokens.string(third.value), lines: sessionLines, media: media)
    }

    private func parseLine(_ line: RawLine, of text: String, inMedia: Bool) throws(SDPParseError) -> SDPLine {
        let value = line.value
        switch line.type {
        case UInt8(ascii: "a"): return .attribute(try parseAttribute(line, of: text))
        case UInt8(ascii: "c"): return .connection(try checked(line) { v throws(SDPValueError) in try ConnectionData(parsing: v) })
        case UInt8(ascii: "b"): return .bandwidth(try checked(line) { v throws(SDPValueError) in try Bandwidth(parsing: v) })
        case UInt8(ascii: "t"):
            guard !inMedia else { throw invalid(line, "`t=` is only allowed at session level") }
            return .timing(try checked(line) { v throws(SDPValueError) in try Timing(parsing: v) })
        case UInt8(ascii: "i"): return .information(Tokens.string(value))
        case UInt8(ascii: "u"): return .uri(Tokens.string(value))
        case UInt8(ascii: "e"): return .email(Tokens.string(value))
        case UInt8(ascii: "p"): return .phone(Tokens.string(value))
        case UInt8(ascii: "r"): return .repeatTimes(Tokens.string(value))
        case UInt8(ascii: "z"): return .timeZones(Tokens.string(value))
        case UInt8(ascii: "k"): return .encryptionKey(Tokens.string(value))
        case UInt8(ascii: "v"), UInt8(ascii: "o"), UInt8(ascii: "s"):
            throw invalid(line, "`\(Character(Unicode.Scalar(line.type)))=` may appear only once, at the start")
        default: return .unknown(type: Character(Unicode.Scalar(line.type)), value: Tokens.string(value))
        }
    }

    private func parseAttribute(_ line: RawLine, of description: String) throws(SDPParseError) -> Attribute {
        let text = line.value
        let name: SDPBytes
        let value: SDPBytes?
        if let (n, v) = Tokens.splitOnce(text, at: UInt8(ascii: ":")) {
            name = n
            value = v
        } else {
            name = text
            value = nil
        }
        guard !name.isEmpty else { throw invalid(line, "attribute name is empty") }
        if let grammar = AttributeGrammar(name: name) {
            guard let value else { throw invalid(line, "`\(grammar.rawValue)` needs a value") }
            do {
                try grammar.validate(value)
            } catch {
                throw invalid(line, error.reason)
            }
        }
        // Indices into the storage are UTF-8 offsets into `description`.
        return Attribute(in: description, range: text.startIndex..<text.endIndex, nameLength: name.count)
    }

    private func checked<T>(_ line: RawLine, _ body: (SDPBytes) throws(SDPValueError) -> T) throws(SDPParseError) -> T {
        do {
            return try body(line.value)
        } catch {
            throw invalid(line, error.reason)
        }
    }

    private func invalid(_ line: RawLine, _ reason: String) -> SDPParseError {
        .invalidLine(lineNumber: line.number, line: line.text, reason: reason)
    }
}
