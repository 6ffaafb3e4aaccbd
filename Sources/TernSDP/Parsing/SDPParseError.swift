/// Why a description could not be parsed. Descriptions name the line, e.g.
/// ``line 7: `a=rtpmap:abc opus/48000`: payload type is not a number``.
public enum SDPParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text is larger than the parser's limit; refused before any work is done.
    case tooLarge(size: Int, limit: Int)
    /// The bytes are not valid UTF-8 (RFC 8866 §5: SDP text is UTF-8).
    case notUTF8
    /// The description has no lines at all.
    case empty
    /// A line (1-based `lineNumber`) is malformed; `reason` says how.
    case invalidLine(lineNumber: Int, line: String, reason: String)
    /// A mandatory line (`v=`, `o=`, `s=`) is missing; `lineNumber` is where it was expected.
    case missingLine(type: Character, lineNumber: Int)

    public var description: String {
        switch self {
        case .tooLarge(let size, let limit):
            "description is \(size) bytes, over the \(limit)-byte limit"
        case .notUTF8:
            "description is not valid UTF-8"
        case .empty:
            "description is empty"
        case .invalidLine(let number, let line, let reason):
            "line \(number): `\(SDPParseError.clip(line))`: \(reason)"
        case .missingLine(let type, let number):
            "line \(number): expected a `\(type)=` line"
        }
    }

    /// The 1-based line number the error refers to, if any.
    public var lineNumber: Int? {
        switch self {
        case .invalidLine(let n, _, _), .missingLine(_, let n): n
        default: nil
        }
    }

    private static func clip(_ line: String) -> String {
        line.utf8.count <= 200 ? line : String(line.prefix(200)) + "…"
    }
}
