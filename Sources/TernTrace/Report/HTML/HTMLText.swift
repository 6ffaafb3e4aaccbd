/// Strict escaping for text and attribute values placed into the report page.
///
/// The output is also well-formed XML: `&`, `<`, `>`, `"` and `'` become
/// entities, and characters XML 1.0 forbids (C0 controls other than tab, LF, CR;
/// U+FFFE, U+FFFF) become U+FFFD, so no input string can open a tag, close an
/// attribute, or break the document.
enum HTMLText {
    /// `text` made safe for element content and quoted attribute values.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
