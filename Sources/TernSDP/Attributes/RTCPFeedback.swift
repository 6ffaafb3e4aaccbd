/// `a=rtcp-fb:<payload type or *> <type> [<parameter>]` (RFC 4585 §4.2), e.g. `nack pli`, `ccm fir`,
/// `goog-remb`, `transport-cc`.
public struct RTCPFeedback: SDPAttributeValue, SDPBytesParsable {
    public static let attributeName = "rtcp-fb"
    /// The payload type, or nil for `*` (all formats).
    public var payloadType: UInt8?
    /// Feedback type and optional parameter, space-separated as written (`nack`, `nack pli`, `ccm fir`).
    public var feedback: String

    /// Creates an rtcp-fb attribute.
    public init(payloadType: UInt8?, feedback: String) {
        self.payloadType = payloadType
        self.feedback = feedback
    }

    public init(attributeValue: Substring) throws(SDPValueError) {
        self = try Tokens.withBytes(attributeValue) { bytes throws(SDPValueError) in try Self(bytes: bytes) }
    }

    init(bytes: SDPBytes) throws(SDPValueError) {
        let (payloadType, feedback) = try Self.scan(bytes)
        self.payloadType = payloadType
        self.feedback = Tokens.string(feedback)
    }

    static func validate(bytes: SDPBytes) throws(SDPValueError) { _ = try scan(bytes) }

    /// The payload type (nil for `*`) and the feedback text.
    private static func scan(_ bytes: SDPBytes) throws(SDPValueError) -> (UInt8?, SDPBytes) {
        var fields = FieldScanner(bytes)
        guard let first = fields.next(), case let feedback = fields.rest, !feedback.isEmpty else {
            throw SDPValueError("expected `<payload type> <feedback type>`")
        }
        if Tokens.equals(first, "*") { return (nil, feedback) }
        guard let pt = Tokens.number(first, as: UInt8.self), pt <= 127 else {
            throw SDPValueError("payload type is not a number or `*`")
        }
        return (pt, feedback)
    }

    public var attributeValue: String { "\(payloadType.map(String.init) ?? "*") \(feedback)" }
}
