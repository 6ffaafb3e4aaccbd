/// `a=rtcp-fb:<payload type or *> <type> [<parameter>]` (RFC 4585 §4.2), e.g. `nack pli`, `ccm fir`,
/// `goog-remb`, `transport-cc`.
public struct RTCPFeedback: SDPAttributeValue {
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
        let parts = Tokens.fields(attributeValue)
        guard parts.count >= 2 else { throw SDPValueError("expected `<payload type> <feedback type>`") }
        if parts[0] == "*" {
            payloadType = nil
        } else if let pt = Tokens.number(parts[0], as: UInt8.self), pt <= 127 {
            payloadType = pt
        } else {
            throw SDPValueError("payload type is not a number or `*`")
        }
        feedback = parts.dropFirst().joined(separator: " ")
    }

    public var attributeValue: String { "\(payloadType.map(String.init) ?? "*") \(feedback)" }
}
