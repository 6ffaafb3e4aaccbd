/// Writes a `SessionDescription` as SDP text with CRLF line endings (RFC 8866 §5).
public enum SDPWriter {
    /// The description as text.
    public static func write(_ description: SessionDescription) -> String {
        var out = ""
        out.reserveCapacity(64 * (description.lines.count + description.media.reduce(0) { $0 + $1.lines.count + 1 } + 3))
        out += "v=\(description.version)\r\n"
        out += "o=\(description.origin.text)\r\n"
        out += "s=\(description.sessionName)\r\n"
        for line in description.lines {
            out += line.text
            out += "\r\n"
        }
        for media in description.media {
            out += "m=\(media.mediaLine.text)\r\n"
            for line in media.lines {
                out += line.text
                out += "\r\n"
            }
        }
        return out
    }
}
