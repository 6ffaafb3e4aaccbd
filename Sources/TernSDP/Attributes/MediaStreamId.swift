/// `a=msid:<stream id> [<track id>]` (RFC 8830 §2); the stream id `-` means no stream.
public struct MediaStreamId: SDPAttributeValue, SDPBytesParsable {
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
        self = try Tokens.withBytes(attributeValue) { bytes throws(SDPValueError) in try Self(bytes: bytes) }
    }

    init(bytes: SDPBytes) throws(SDPValueError) {
        let (stream, track) = try Self.scan(bytes)
        streamId = Tokens.string(stream)
        trackId = track.map(Tokens.string)
    }

    static func validate(bytes: SDPBytes) throws(SDPValueError) { _ = try scan(bytes) }

    private static func scan(_ bytes: SDPBytes) throws(SDPValueError) -> (SDPBytes, SDPBytes?) {
        var fields = FieldScanner(bytes)
        guard let stream = fields.next() else { throw SDPValueError("expected `<stream id> [<track id>]`") }
        let track = fields.next()
        guard fields.next() == nil else { throw SDPValueError("expected `<stream id> [<track id>]`") }
        return (stream, track)
    }

    public var attributeValue: String { trackId.map { "\(streamId) \($0)" } ?? streamId }
}
