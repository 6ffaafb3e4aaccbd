/// The attributes whose grammar the parser checks (the ones WebRTC uses); others are kept unchecked.
///
/// Recognised from the name's bytes with a switch on its length, so an unknown attribute costs a few
/// comparisons and no string work.
enum AttributeGrammar: String {
    case mid, rid
    case fmtp, msid, ssrc, rtcp
    case group, setup
    case rtpmap, extmap
    case rtcpFeedback = "rtcp-fb", icePwd = "ice-pwd"
    case candidate, iceUfrag = "ice-ufrag", sctpPort = "sctp-port", simulcast
    case ssrcGroup = "ssrc-group"
    case fingerprint
    case maxMessageSize = "max-message-size"

    /// The grammar for an attribute name, or nil for one we keep unchecked.
    init?(name: SDPBytes) {
        let equals = Tokens.equals
        let found: AttributeGrammar? = switch name.count {
        case 3: equals(name, "mid") ? .mid : equals(name, "rid") ? .rid : nil
        case 4: equals(name, "fmtp") ? .fmtp : equals(name, "ssrc") ? .ssrc
            : equals(name, "msid") ? .msid : equals(name, "rtcp") ? .rtcp : nil
        case 5: equals(name, "group") ? .group : equals(name, "setup") ? .setup : nil
        case 6: equals(name, "rtpmap") ? .rtpmap : equals(name, "extmap") ? .extmap : nil
        case 7: equals(name, "rtcp-fb") ? .rtcpFeedback : equals(name, "ice-pwd") ? .icePwd : nil
        case 9: equals(name, "candidate") ? .candidate : equals(name, "ice-ufrag") ? .iceUfrag
            : equals(name, "sctp-port") ? .sctpPort : equals(name, "simulcast") ? .simulcast : nil
        case 10: equals(name, "ssrc-group") ? .ssrcGroup : nil
        case 11: equals(name, "fingerprint") ? .fingerprint : nil
        case 16: equals(name, "max-message-size") ? .maxMessageSize : nil
        default: nil
        }
        guard let found else { return nil }
        self = found
    }

    /// Checks a value against the grammar by parsing it as the typed attribute.
    func validate(_ value: SDPBytes) throws(SDPValueError) {
        switch self {
        case .rtpmap: try RTPMap.validate(bytes: value)
        case .fmtp: try FormatParameters.validate(bytes: value)
        case .rtcpFeedback: try RTCPFeedback.validate(bytes: value)
        case .extmap: try ExtensionMap.validate(bytes: value)
        case .group: try Group.validate(bytes: value)
        case .msid: try MediaStreamId.validate(bytes: value)
        case .ssrc: try SSRCAttribute.validate(bytes: value)
        case .ssrcGroup: try SSRCGroup.validate(bytes: value)
        case .rtcp: try RTCPAttribute.validate(bytes: value)
        case .candidate: try ICECandidate.validate(bytes: value)
        case .fingerprint: try Fingerprint.validate(bytes: value)
        case .setup: try SetupRole.validate(bytes: value)
        case .rid: try RID.validate(bytes: value)
        case .simulcast: try Simulcast.validate(bytes: value)
        case .mid: try Self.nonEmpty(value, "mid")
        case .iceUfrag: try Self.nonEmpty(value, "ICE ufrag")
        case .icePwd: try Self.nonEmpty(value, "ICE password")
        case .sctpPort: try Self.number(value, "SCTP port")
        case .maxMessageSize: try Self.number(value, "max message size")
        }
    }

    private static func nonEmpty(_ value: SDPBytes, _ what: String) throws(SDPValueError) {
        if Tokens.trimmed(value).isEmpty { throw SDPValueError("\(what) is empty") }
    }

    private static func number(_ value: SDPBytes, _ what: String) throws(SDPValueError) {
        if Tokens.number(Tokens.trimmed(value), as: UInt64.self) == nil { throw SDPValueError("\(what) is not a number") }
    }
}
