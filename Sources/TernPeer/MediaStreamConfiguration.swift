package import TernSDP

/// What the transport needs to send one local media stream, derived from negotiation.
package struct SendStreamConfiguration: Sendable, Equatable {
    package var mid: String
    package var kind: MediaKind
    package var ssrc: UInt32
    package var payloadType: UInt8
    package var codecName: String
    package var clockRate: Int
    /// The negotiated id of the `sdes:mid` header extension, when both sides use it (RFC 8843 §15).
    package var midExtensionID: UInt8?
    /// Whether the remote side asked for generic NACK on this codec (RFC 4585).
    package var nackEnabled: Bool
    /// Where NACKed packets are resent when RTX is negotiated (RFC 4588); nil: resent as they were.
    package var rtx: RTXStream? = nil
    /// The negotiated id of the transport-wide sequence number extension: each packet sent on
    /// this stream is numbered for the send-side bandwidth estimate (nil: not negotiated).
    package var transportCCExtensionID: UInt8? = nil
}

/// An RTX stream (RFC 4588 §4): its own SSRC (`a=ssrc-group:FID primary rtx`) and payload type
/// (`a=fmtp:<pt> apt=<primary pt>`).
package struct RTXStream: Sendable, Equatable {
    package var ssrc: UInt32
    package var payloadType: UInt8
}

/// What the transport needs to receive one remote media stream.
package struct ReceiveStreamConfiguration: Sendable, Equatable {
    package var mid: String
    package var kind: MediaKind
    /// SSRCs the remote description announced (`a=ssrc`), if any; otherwise learnt from the
    /// mid header extension or the payload type.
    package var announcedSSRCs: [UInt32]
    package var payloadTypes: [UInt8: (name: String, clockRate: Int)]
    package var midExtensionID: UInt8?
    package var nackEnabled: Bool
    /// RTX payload types (RFC 4588 §8.6) → the payload type they repair (`apt`).
    package var rtxPayloadTypes: [UInt8: UInt8] = [:]
    /// The remote RTX SSRCs → their primary SSRC (`a=ssrc-group:FID`).
    package var rtxSSRCs: [UInt32: UInt32] = [:]
    /// The negotiated id of the transport-wide sequence number extension, when used: arrivals are
    /// then reported back in transport-cc feedback (draft-holmer-rmcat-transport-wide-cc-extensions-01).
    package var transportCCExtensionID: UInt8? = nil
    /// Whether the remote sender takes Full Intra Requests (`a=rtcp-fb … ccm fir`, RFC 5104 §7.1).
    package var firEnabled = false

    package static func == (lhs: ReceiveStreamConfiguration, rhs: ReceiveStreamConfiguration) -> Bool {
        lhs.mid == rhs.mid && lhs.kind == rhs.kind && lhs.announcedSSRCs == rhs.announcedSSRCs
            && lhs.payloadTypes.keys.sorted() == rhs.payloadTypes.keys.sorted()
            && lhs.midExtensionID == rhs.midExtensionID && lhs.nackEnabled == rhs.nackEnabled
            && lhs.rtxPayloadTypes == rhs.rtxPayloadTypes && lhs.rtxSSRCs == rhs.rtxSSRCs
            && lhs.transportCCExtensionID == rhs.transportCCExtensionID
    }
}
