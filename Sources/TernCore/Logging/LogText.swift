/// Text from the network made safe for a log line: a peer or client chooses it, and a log is
/// read in terminals and parsed by tools.
public enum LogText {
    /// `text` with control characters (C0, DEL, C1), line and paragraph separators and the
    /// bidirectional overrides and isolates (which reorder what a terminal shows) written as
    /// `\u{XXXX}`, and cut to `limit` characters (marked with `…`).
    public static func escaped(_ text: String, limit: Int = 512) -> String {
        var out = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count >= limit {
                out += "…"
                break
            }
            if isUnsafe(scalar) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
            count += 1
        }
        return out
    }

    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true              // C0, DEL, C1
        case 0x2028, 0x2029: true                          // line / paragraph separator
        case 0x200E, 0x200F, 0x061C: true                  // directional marks
        case 0x202A...0x202E, 0x2066...0x2069: true        // bidi embeddings, overrides, isolates
        default: false
        }
    }

    /// SDP text with each `a=ice-pwd:` value replaced by its length (RFC 8839 §5.4: the password
    /// authenticates connectivity checks and consent for as long as the call runs), for logs,
    /// reports and printed descriptions. Line endings are kept.
    public static func redactingICEPasswords(_ sdp: String) -> String {
        // By Unicode scalars: a String sees "\r\n" as one Character, so splitting at "\n"
        // would not split a CRLF description at all.
        let prefix = Array("a=ice-pwd:".unicodeScalars)
        var out = String.UnicodeScalarView()
        var line: [Unicode.Scalar] = []
        func flush() {
            if line.starts(with: prefix) {
                let carriage = line.last == "\r"
                let length = line.count - prefix.count - (carriage ? 1 : 0)
                out.append(contentsOf: "a=ice-pwd:(redacted, \(length) characters)".unicodeScalars)
                if carriage { out.append("\r") }
            } else {
                out.append(contentsOf: line)
            }
            line.removeAll(keepingCapacity: true)
        }
        for scalar in sdp.unicodeScalars {
            if scalar == "\n" {
                flush()
                out.append(scalar)
            } else {
                line.append(scalar)
            }
        }
        flush()
        return String(out)
    }
}
