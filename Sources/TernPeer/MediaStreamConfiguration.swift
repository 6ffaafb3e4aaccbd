import TernSDP

/// What the transport needs to send one local media stream, derived from negotiation.
struct SendStreamConfiguration: Sendable, Equatable {
    var mid: String
    var kind: MediaKind
    var ssrc: UInt32
    var payloadType: UInt8
    var codecName: String
    var clockRate: Int
    /// The negotiated id of the `sdes:mid` header extension, when both sides use it (RFC 8843 §15).
    var midExtensionID: UInt8?
    /// Whether the remote side asked for generic NACK on this codec (RFC 4585).
    var nackEnabled: Bool
    /// Where NACKed packets are resent when RTX is negotiated (RFC 4588); nil: resent as they were.
    var rtx: RTXStream? = nil
}

/// An RTX stream (RFC 4588 §4): its own SSRC (`a=ssrc-group:FID primary rtx`) and payload type
/// (`a=fmtp:<pt> apt=<primary pt>`).
struct RTXStream: Sendable, Equatable {
    var ssrc: UInt32
    var payloadType: UInt8
}

/// What the transport needs to receive one remote media stream.
struct ReceiveStreamConfiguration: Sendable, Equatable {
    var mid: String
    var kind: MediaKind
    /// SSRCs the remote description announced (`a=ssrc`), if any; otherwise learnt from the
    /// mid header extension or the payload type.
    var announcedSSRCs: [UInt32]
    var payloadTypes: [UInt8: (name: String, clockRate: Int)]
    var midExtensionID: UInt8?
    var nackEnabled: Bool
    /// RTX payload types (RFC 4588 §8.6) → the payload type they repair (`apt`).
    var rtxPayloadTypes: [UInt8: UInt8] = [:]
    /// The remote RTX SSRCs → their primary SSRC (`a=ssrc-group:FID`).
    var rtxSSRCs: [UInt32: UInt32] = [:]
    /// The negotiated id of the transport-wide sequence number extension, when used: arrivals are
    /// then reported back in transport-cc feedback (draft-holmer-rmcat-transport-wide-cc-extensions-01).
    var transportCCExtensionID: UInt8? = nil

    static func == (lhs: ReceiveStreamConfiguration, rhs: ReceiveStreamConfiguration) -> Bool {
        lhs.mid == rhs.mid && lhs.kind == rhs.kind && lhs.announcedSSRCs == rhs.announcedSSRCs
            && lhs.payloadTypes.keys.sorted() == rhs.payloadTypes.keys.sorted()
            && lhs.midExtensionID == rhs.midExtensionID && lhs.nackEnabled == rhs.nackEnabled
            && lhs.rtxPayloadTypes == rhs.rtxPayloadTypes && lhs.rtxSSRCs == rhs.rtxSSRCs
            && lhs.transportCCExtensionID == rhs.transportCCExtensionID
    }
}
