/// Parses SDP text (RFC 8866 §5) into a `SessionDescription`.
///
/// - Work is linear in the input: one pass over the UTF-8 bytes to split lines, one pass per line.
/// - Input over `maxSize` bytes is refused before parsing (default 256 KiB).
/// - CRLF and bare LF line endings are both accepted (RFC 8866 §5 asks writers for CRLF; readers should
///   accept LF). Blank lines are skipped.
/// - Attributes WebRTC uses are validated; unknown attributes and line types are kept verbatim.
public struct SDPParser: Sendable {
    /// Largest accepted description, in bytes.
    public var maxSize: Int

    /// Default size limit: 256 KiB.
    public static let defaultMaxSize = 256 * 1024

    /// Creates a parser with a size limit.
    public init(maxSize: Int = SDPParser.defaultMaxSize) {
        self.maxSize = maxSize
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
        var lines = SDPLineReader(text)

        guard let (n1, first) = try lines.next() else { throw .empty }
        guard first.type == "v" else { throw .missingLine(type: "v", lineNumber: n1) }
        guard first.value == "0" else {
            throw .invalidLine(lineNumber: n1, line: String(first.raw), reason: "protocol version must be 0")
        }
        guard let (n2, second) = try lines.next() else { throw .missingLine(type: "o", lineNumber: n1 + 1) }
        guard second.type == "o" else { throw .missingLine(type: "o", lineNumber: n2) }
        let origin = try checked(n2, second) { v throws(SDPValueError) in try Origin(parsing: v) }
        guard let (n3, third) = try lines.next() else { throw .missingLine(type: "s", lineNumber: n2 + 1) }
        guard third.type == "s" else { throw .missingLine(type: "s", lineNumber: n3) }

        var description = SessionDescription(origin: origin, sessionName: String(third.value), lines: [], media: [])
        while let (number, line) = try lines.next() {
            if line.type == "m" {
                let mediaLine = try checked(number, line) { v throws(SDPValueError) in try MediaLine(parsing: v) }
                description.media.append(MediaDescription(mediaLine: mediaLine))
                continue
            }
            let parsed = try parseLine(number, line, inMedia: !description.media.isEmpty)
            if description.media.isEmpty {
                description.lines.append(parsed)
            } else {
                description.media[description.media.count - 1].lines.append(parsed)
            }
        }
        return description
    }

    private func parseLine(_ number: Int, _ line: RawLine, inMedia: Bool) throws(SDPParseError) -> SDPLine {
        let value = line.value
        switch line.type {
        case "a": return .attribute(try parseAttribute(number, line))
        case "c": return .connection(try checked(number, line) { v throws(SDPValueError) in try ConnectionData(parsing: v) })
        case "b": return .bandwidth(try checked(number, line) { v throws(SDPValueError) in try Bandwidth(parsing: v) })
        case "t":
            guard !inMedia else { throw invalid(number, line, "`t=` is only allowed at session level") }
            return .timing(try checked(number, line) { v throws(SDPValueError) in try Timing(parsing: v) })
        case "i": return .information(String(value))
        case "u": return .uri(String(value))
        case "e": return .email(String(value))
        case "p": return .phone(String(value))
        case "r": return .repeatTimes(String(value))
        case "z": return .timeZones(String(value))
        case "k": return .encryptionKey(String(value))
        case "v", "o", "s":
            throw invalid(number, line, "`\(line.type)=` may appear only once, at the start")
        default: return .unknown(type: line.type, value: String(value))
        }
    }

    private func parseAttribute(_ number: Int, _ line: RawLine) throws(SDPParseError) -> Attribute {
        let name: Substring
        let value: Substring?
        if let (n, v) = Tokens.splitOnce(line.value, at: UInt8(ascii: ":")) {
            name = n
            value = v
        } else {
            name = line.value
            value = nil
        }
        guard !name.isEmpty else { throw invalid(number, line, "attribute name is empty") }
        let nameString = String(name)
        if let validator = Self.validators[nameString] {
            guard let value else { throw invalid(number, line, "`\(nameString)` needs a value") }
            do {
                try validator(value)
            } catch {
                throw invalid(number, line, error.reason)
            }
        }
        return Attribute(name: nameString, value: value.map(String.init))
    }

    private func checked<T>(_ number: Int, _ line: RawLine,
                            _ body: (Substring) throws(SDPValueError) -> T) throws(SDPParseError) -> T {
        do {
            return try body(line.value)
        } catch {
            throw invalid(number, line, error.reason)
        }
    }

    private func invalid(_ number: Int, _ line: RawLine, _ reason: String) -> SDPParseError {
        .invalidLine(lineNumber: number, line: String(line.raw), reason: reason)
    }

    /// Checks for the attributes whose grammar we know; others are kept unchecked.
    private static let validators: [String: @Sendable (Substring) throws(SDPValueError) -> Void] = {
        func check<T: SDPAttributeValue>(_ type: T.Type) -> @Sendable (Substring) throws(SDPValueError) -> Void {
            { v throws(SDPValueError) in _ = try T(attributeValue: v) }
        }
        func nonEmpty(_ what: String) -> @Sendable (Substring) throws(SDPValueError) -> Void {
            { v throws(SDPValueError) in
                if Tokens.trimmed(v).isEmpty { throw SDPValueError("\(what) is empty") }
            }
        }
        func number(_ what: String) -> @Sendable (Substring) throws(SDPValueError) -> Void {
            { v throws(SDPValueError) in
                if Tokens.number(Tokens.trimmed(v), as: UInt64.self) == nil { throw SDPValueError("\(what) is not a number") }
            }
        }
        return [
            RTPMap.attributeName: check(RTPMap.self),
            FormatParameters.attributeName: check(FormatParameters.self),
            RTCPFeedback.attributeName: check(RTCPFeedback.self),
            ExtensionMap.attributeName: check(ExtensionMap.self),
            Group.attributeName: check(Group.self),
            MediaStreamId.attributeName: check(MediaStreamId.self),
            SSRCAttribute.attributeName: check(SSRCAttribute.self),
            SSRCGroup.attributeName: check(SSRCGroup.self),
            RTCPAttribute.attributeName: check(RTCPAttribute.self),
            IceCandidate.attributeName: check(IceCandidate.self),
            Fingerprint.attributeName: check(Fingerprint.self),
            SetupRole.attributeName: check(SetupRole.self),
            RID.attributeName: check(RID.self),
            Simulcast.attributeName: check(Simulcast.self),
            "mid": nonEmpty("mid"),
            "ice-ufrag": nonEmpty("ICE ufrag"),
            "ice-pwd": nonEmpty("ICE password"),
            "sctp-port": number("SCTP port"),
            "max-message-size": number("max message size"),
        ]
    }()
}
