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
}
