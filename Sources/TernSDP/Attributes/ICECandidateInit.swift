/// A trickled candidate as signalled by applications (W3C `RTCIceCandidateInit`).
///
/// An empty `candidate` string signals end-of-candidates (RFC 8840 §4.4, W3C `addICECandidate`).
public struct ICECandidateInit: Sendable, Equatable, Codable {
    /// `candidate:...` text (with or without `a=`), or "" for end of candidates.
    public var candidate: String
    /// The media section's mid.
    public var sdpMid: String?
    /// The media section's index, used when `sdpMid` is absent.
    public var sdpMLineIndex: Int?
    /// The ICE ufrag the candidate belongs to.
    public var usernameFragment: String?

    /// Creates a candidate init.
    public init(candidate: String, sdpMid: String? = nil, sdpMLineIndex: Int? = nil, usernameFragment: String? = nil) {
        self.candidate = candidate
        self.sdpMid = sdpMid
        self.sdpMLineIndex = sdpMLineIndex
        self.usernameFragment = usernameFragment
    }

    /// Creates an init from a parsed candidate.
    public init(_ candidate: ICECandidate, sdpMid: String?, sdpMLineIndex: Int?, usernameFragment: String? = nil) {
        self.init(candidate: candidate.candidateString, sdpMid: sdpMid, sdpMLineIndex: sdpMLineIndex,
                  usernameFragment: usernameFragment)
    }

    /// True for the end-of-candidates marker (empty candidate text).
    public var isEndOfCandidates: Bool { Tokens.withBytes(candidate) { Tokens.trimmed($0).isEmpty } }

    /// The parsed candidate; nil for end-of-candidates.
    public func parsed() throws(SDPValueError) -> ICECandidate? {
        isEndOfCandidates ? nil : try ICECandidate(parsing: candidate)
    }
}
