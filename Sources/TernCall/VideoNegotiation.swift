import TernCore

/// The pending video requests of one call (see `CallSession+Video.swift`).
struct VideoNegotiation: Sendable {
    /// A request this side sent and whose answer it waits for.
    struct Request: Sendable {
        var id: String
        /// The requested direction (local request) or the offered one seen from this side (remote).
        var mode: VideoMode
        var deadline: Instant
    }

    /// This side's request, waiting for the answer.
    var local: Request?
    /// The other side's request, waiting for the application's answer.
    var remote: Request?
    /// The direction agreed and being renegotiated by the driver, seen from this side.
    var agreed: VideoMode?
    /// Numbers this side's requests.
    var counter = 0
}
