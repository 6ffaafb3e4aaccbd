/// A description with its type, as exchanged by signaling (W3C `RTCSessionDescriptionInit`).
public struct JSEPDescription: Sendable, Equatable, Codable {
    /// Offer, pranswer, answer or rollback.
    public var type: SDPType
    /// The SDP text (empty for rollback).
    public var sdp: String

    /// Creates a typed description.
    public init(type: SDPType, sdp: String) {
        self.type = type
        self.sdp = sdp
    }
}
