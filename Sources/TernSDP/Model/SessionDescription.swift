/// A parsed SDP session description (RFC 8866).
///
/// `v=`, `o=` and `s=` are typed fields; every other session-level line is kept in `lines` in order,
/// followed by the media sections. `SDPParser` builds it and `text` writes it back; for CRLF input written
/// by common implementations `parse(x).text == x` byte for byte.
public struct SessionDescription: Sendable, Equatable, AttributeContainer {
    /// `v=` protocol version (always 0).
    public var version: Int
    /// `o=` origin.
    public var origin: Origin
    /// `s=` session name (`-` in WebRTC).
    public var sessionName: String
    /// Session-level lines after `s=` (i, u, e, p, c, b, t, r, z, k, a, unknown) in order.
    public var lines: [SDPLine]
    /// The media sections in m= line order.
    public var media: [MediaDescription]

    /// Creates a description.
    public init(version: Int = 0, origin: Origin, sessionName: String = "-",
                lines: [SDPLine] = [.timing(Timing())], media: [MediaDescription] = []) {
        self.version = version
        self.origin = origin
        self.sessionName = sessionName
        self.lines = lines
        self.media = media
    }

    /// Parses SDP text with default limits. See `SDPParser`.
    public init(parsing text: String) throws(SDPParseError) {
        self = try SDPParser().parse(text)
    }

    /// The `group` attributes with `BUNDLE` semantics (RFC 9143 §7.1).
    public var bundleGroups: [Group] {
        groups.filter { $0.semantics.uppercased() == "BUNDLE" }
    }

    /// True when `a=ice-lite` is present at session level (RFC 8839 §5.3).
    public var isICELite: Bool { hasFlag("ice-lite") }

    /// The media section whose `a=mid` equals `mid`.
    public func media(mid: String) -> MediaDescription? {
        media.first { $0.mid == mid }
    }

    /// The description written as SDP text with CRLF line endings.
    public var text: String { SDPWriter.write(self) }
}
