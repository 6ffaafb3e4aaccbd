import TernCore

/// A timeline of one transport's ICE life: every candidate gathered or added, every
/// state change and pair selection, with monotonic timestamps (`SystemClock`).
/// Printable as text (`description`) and encodable as JSON (`Codable`).
public struct IceTrace: Sendable, Codable, CustomStringConvertible {
    /// One entry.
    public struct Entry: Sendable, Codable, Hashable {
        /// Monotonic time, nanoseconds (`Instant.nanoseconds`).
        public var time: Int64
        /// What happened.
        public var event: Event
    }

    /// What can appear in a trace.
    public enum Event: Sendable, Codable, Hashable {
        /// `gather()` was called.
        case gatheringStarted
        /// A local candidate was gathered (and signalled unless `policy` filtered it).
        case localCandidate(IceCandidate, signalled: Bool)
        /// Gathering finished.
        case gatheringComplete
        /// A remote candidate was given to libnice.
        case remoteCandidateAdded(IceCandidate)
        /// A remote candidate was not used.
        case remoteCandidateDropped(IceCandidate, reason: String)
        /// The peer signalled end-of-candidates.
        case remoteEndOfCandidates
        /// Remote credentials were set.
        case remoteCredentialsSet(usernameFragment: String)
        /// The transport state changed; `libniceState` is libnice's component state name.
        case stateChanged(IceTransportState, libniceState: String)
        /// A pair was selected (first time or a change).
        case selectedPair(IceCandidatePair)
        /// ICE restart with new local credentials.
        case restarted(usernameFragment: String)
    }

    /// Entries in order of occurrence.
    public var entries: [Entry] = []

    /// An empty trace.
    public init() {}

    mutating func record(_ event: Event, at now: Instant) {
        entries.append(Entry(time: now.nanoseconds, event: event))
    }

    /// One line per entry, times in milliseconds relative to the first entry.
    public var description: String {
        let origin = entries.first?.time ?? 0
        return entries.map { entry in
            let ms = Double(entry.time - origin) / 1_000_000
            let t = String(Int((ms * 1000).rounded())).leftPadded(to: 9)
            return "+\(t)us \(entry.event.text)"
        }.joined(separator: "\n")
    }
}

extension IceTrace.Event {
    var text: String {
        switch self {
        case .gatheringStarted: "gathering started"
        case let .localCandidate(c, signalled): "local \(c.sdp)\(signalled ? "" : " (not signalled: policy)")"
        case .gatheringComplete: "gathering complete"
        case let .remoteCandidateAdded(c): "remote \(c.sdp)"
        case let .remoteCandidateDropped(c, reason): "remote dropped \(c.sdp): \(reason)"
        case .remoteEndOfCandidates: "remote end-of-candidates"
        case let .remoteCredentialsSet(ufrag): "remote credentials ufrag=\(ufrag)"
        case let .stateChanged(s, raw): "state \(s.rawValue) (libnice \(raw))"
        case let .selectedPair(p): "selected pair \(p)"
        case let .restarted(ufrag): "ICE restart, new local ufrag=\(ufrag)"
        }
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
