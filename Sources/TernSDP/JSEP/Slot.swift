import TernCore

/// One m= line position and what occupies it.
struct Slot: Equatable, Sendable {
    enum Content: Equatable, Sendable {
        case transceiver(Int)
        case data
        /// A remote section we cannot use (unknown media or protocol, second data section); always rejected.
        case unsupported(MediaLine)
    }

    var mid: String
    var content: Content
}

/// What rollback restores (RFC 9429 §4.1.8.2).
struct Snapshot: Sendable {
    var slots: [Slot]
    var transceivers: [Transceiver]
    var localCredentials: ICECredentials
}
