/// A description as `JSEPSession` applied it: the type and text as given, which W3C's
/// description attributes return unchanged (webrtc-pc §4.4.1.1), and the parse negotiation
/// reads. Remote candidates trickled since (`addRemoteCandidate`) join `parsed`, not `applied`.
public struct AppliedDescription: Sendable, Equatable {
    /// The type and SDP text as applied.
    public let applied: JSEPDescription
    /// The parsed description, with the remote candidates supplied since.
    public internal(set) var parsed: SessionDescription

    init(_ applied: JSEPDescription, parsed: SessionDescription) {
        self.applied = applied
        self.parsed = parsed
    }
}
