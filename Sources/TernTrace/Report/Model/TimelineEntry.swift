/// One event of the call timeline.
public struct TimelineEntry: Codable, Sendable, Equatable {
    /// Milliseconds since the start of the call.
    public var tMs: Double
    /// A short grouping word shown in its own column, e.g. "signaling", "ice", "dtls", "media".
    public var category: String
    /// What happened.
    public var message: String

    /// An event at `tMs` milliseconds after the call started.
    public init(tMs: Double, category: String, message: String) {
        self.tMs = tMs
        self.category = category
        self.message = message
    }
}
