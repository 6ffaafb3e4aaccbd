/// An ICE candidate as carried by a `candidate` message: the JSON form of the W3C
/// `RTCIceCandidateInit` dictionary
/// (`{"candidate":"candidate:1 1 udp …","sdpMid":"0","sdpMLineIndex":0}`), so a
/// browser's `event.candidate.toJSON()` can be sent as is.
///
/// End of candidates is not an instance of this type: it is `"candidate": null` in
/// the message (`SignalingMessage.candidate(callId:candidate: nil)`).
public struct SignalingICECandidate: Codable, Hashable, Sendable {
    /// The `candidate-attribute` of RFC 8839 section 5.1, with the `candidate:` prefix.
    public var candidate: String
    /// The media stream identification tag of the m-line this candidate belongs to.
    public var sdpMid: String?
    /// The zero-based index of that m-line.
    public var sdpMLineIndex: Int?
    /// The ICE username fragment, if the sender knows it.
    public var usernameFragment: String?

    /// Creates a candidate.
    public init(candidate: String, sdpMid: String?, sdpMLineIndex: Int?, usernameFragment: String? = nil) {
        self.candidate = candidate
        self.sdpMid = sdpMid
        self.sdpMLineIndex = sdpMLineIndex
        self.usernameFragment = usernameFragment
    }
}
