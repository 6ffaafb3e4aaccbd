/// A session description as carried by a `description` message: the JSON form of the
/// W3C `RTCSessionDescriptionInit` dictionary (`{"type":"offer","sdp":"v=0…"}`), so a
/// browser's `pc.localDescription` can be sent as is.
public struct SignalingSessionDescription: Codable, Hashable, Sendable {
    /// W3C `RTCSdpType`; raw values are the exact W3C strings.
    public enum SDPType: String, Codable, Hashable, Sendable {
        case offer, pranswer, answer, rollback
    }

    /// What this description is in the offer/answer exchange (RFC 8829 section 4.1.8).
    public var type: SDPType
    /// The SDP text (RFC 8866); W3C allows it to be absent for `rollback`.
    public var sdp: String?

    /// Creates a description.
    public init(type: SDPType, sdp: String?) {
        self.type = type
        self.sdp = sdp
    }
}
