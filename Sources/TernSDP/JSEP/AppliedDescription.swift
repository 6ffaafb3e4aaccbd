/// A description as `JsepSession` applied it: the type and text as given, which W3C's
/// description attributes return unchanged (webrtc-pc §4.4.1.1), and the parse negotiation
/// reads. Remote candidates trickled since (`addRemoteCandidate`) join `parsed`, not `applied`.
public struct AppliedDescription: Sendable, Equatable {
    /// The type and SDP text as applied.
    public let applied: JsepDescription
    /// The parsed description, with the remote candidates supplied since.
    public internal(set) var parsed: SessionDescription

    init(_ applied: JsepDescription, parsed: SessionDescription) {
        self.applied = applied
        self.parsed = parsed
    }
}
