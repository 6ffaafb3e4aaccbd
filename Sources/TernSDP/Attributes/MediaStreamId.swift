/// `a=msid:<stream id> [<track id>]` (RFC 8830 §2); the stream id `-` means no stream.
public struct MediaStreamId: SDPAttributeValue {
    public static let attributeName = "msid"
    /// Media stream id.
    public var streamId: String
    /// Optional track id ("appdata").
    public var trackId: String?

    /// Creates an msid attribute.
    public init(streamId: String, trackId: String? = nil) {
        self.streamId = streamId
        self.trackId = trackId
    }

    public init(attributeValue: Substring) throws(SDPValueError) {
        let parts = Tokens.fields(attributeValue)
        guard parts.count == 1 || parts.count == 2 else { throw SDPValueError("expected `<stream id> [<track id>]`") }
        streamId = String(parts[0])
        trackId = parts.count == 2 ? String(parts[1]) : nil
    }

    public var attributeValue: String { trackId.map { "\(streamId) \($0)" } ?? streamId }
}
