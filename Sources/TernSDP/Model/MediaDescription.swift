/// One media section (RFC 8866 §5.14): the `m=` line and the lines that follow it, in order.
public struct MediaDescription: Sendable, Equatable, AttributeContainer {
    /// The `m=` line.
    public var mediaLine: MediaLine
    /// Every following line (i, c, b, k, a and unknown types) in the order written.
    public var lines: [SDPLine]

    /// Creates a media section.
    public init(mediaLine: MediaLine, lines: [SDPLine] = []) {
        self.mediaLine = mediaLine
        self.lines = lines
    }

    /// The media type (`audio`, `video`, `application`, ...).
    public var kind: String { mediaLine.media }

    /// The section's connection line, if any.
    public var connection: ConnectionData? {
        for line in lines { if case .connection(let c) = line { return c } }
        return nil
    }

    /// True when the port is 0: the section is rejected or stopped (RFC 3264 §6).
    public var isRejected: Bool { mediaLine.port == 0 }

    /// True when `a=bundle-only` is present (RFC 8843 §6).
    public var isBundleOnly: Bool { hasFlag("bundle-only") }
}
