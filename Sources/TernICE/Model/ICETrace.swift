public import TernSDP
import TernCore

/// A timeline of one transport's ICE life: every candidate gathered or added, every
/// state change and pair selection, with monotonic timestamps (`SystemClock`).
/// Printable as text (`description`) and encodable as JSON (`Codable`).
public struct ICETrace: Sendable, Codable, CustomStringConvertible {
    /// One entry.
    public struct Entry: Sendable, Codable, Hashable {
        /// Monotonic time, nanoseconds (`Instant.nanoseconds`).
        public var time: Int64
        /// What happened.
        public var event: Event
    }

    /// What can appear in a trace. Every associated value is labelled: the labels are the JSON
    /// keys (`{"stateChanged":{"state":"connected","libniceState":"ready"}}`).
    public enum Event: Sendable, Codable, Hashable {
        /// `gather()` was called.
        case gatheringStarted
        /// A local candidate was gathered (and signalled unless `policy` filtered it).
        case localCandidate(candidate: ICECandidate, signalled: Bool)
        /// Gathering finished.
        case gatheringComplete
        /// A remote candidate was given to libnice.
        case remoteCandidateAdded(candidate: ICECandidate)
        /// A remote candidate was not used.
        case remoteCandidateDropped(candidate: ICECandidate, reason: String)
        /// The peer signalled end-of-candidates.
        case remoteEndOfCandidates
        /// Remote credentials were set.
        case remoteCredentialsSet(usernameFragment: String)
        /// The transport state changed; `libniceState` is libnice's component state name.
        case stateChanged(state: ICETransportState, libniceState: String)
        /// A pair was selected (first time or a change), and why (`ICETransport.selectionReason`).
        case selectedPair(pair: ICECandidatePair, reason: String)
        /// A check succeeded on this pair before any was selected: data (DTLS) started on it
        /// (`ICEConfiguration.sendsOnValidPairs`).
        case validPair(pair: ICECandidatePair)
        /// A candidate pair of the check list changed state (RFC 8445 §6.1.2.6: FROZEN, WAITING,
        /// IN_PROGRESS, SUCCEEDED, FAILED); `requestsSent` counts the connectivity checks sent
        /// on it since its last state other than IN_PROGRESS. From libnice's debug narration,
        /// only with `ICEConfiguration.tracePairChecks` (`NiceDebugTap`).
        case pairCheck(local: String, remote: String, state: String, requestsSent: Int)
        /// A pair was nominated (RFC 8445 §8.1.1); `detail` is libnice's account of how.
        case pairNominated(local: String, remote: String, detail: String?)
        /// Something libnice decided about the check list as a whole (its stopping criterion).
        case checkListNote(note: String)
        /// ICE restart with new local credentials.
        case restarted(usernameFragment: String)
        /// A configured server is used differently from what its URL promises.
        case serverWarning(server: ICEServer, reason: String)
        /// A `turns:` server is reached through Tern's local TLS bridge at `bridge` (libnice sees
        /// a TURN/TCP server there; Docs/ICE.md, "TURN over TLS"); `verifiesCertificate` is false
        /// only with `TurnTLSOptions.insecureSkipVerify`.
        case turnTLSBridge(server: ICEServer, bridge: String, verifiesCertificate: Bool)
        /// A TLS session to a `turns:` server is up (negotiated protocol version and cipher suite).
        case turnTLSEstablished(server: ICEServer, version: String, cipher: String)
        /// A connection to a `turns:` server failed (TCP connect, TLS handshake, certificate or
        /// host name verification): libnice's connection to the bridge is closed, so this server
        /// gives no relay candidate.
        case turnTLSFailed(server: ICEServer, reason: String)
        /// Tern's round-trip probe on the selected pair was answered after `roundTripTime`
        /// (the pair's `responsesReceived`-th answer).
        case roundTripMeasured(roundTripTime: Duration, responsesReceived: UInt64)
        /// A round-trip probe did not count (no answer within the probe timeout, a bad MAC, an
        /// answer to no outstanding probe), or probing stopped because the peer never answers.
        case roundTripProbeFailed(reason: String)
    }

    /// Entries in order of occurrence.
    public var entries: [Entry] = []

    /// An empty trace.
    public init() {}

    mutating func record(_ event: Event, at now: Instant) {
        entries.append(Entry(time: now.nanoseconds, event: event))
    }

    /// The pair selected last and why (`Event.selectedPair`), if any was.
    public var selection: (pair: ICECandidatePair, reason: String)? {
        for entry in entries.reversed() {
            if case let .selectedPair(pair, reason) = entry.event { return (pair, reason) }
        }
        return nil
    }

    /// This trace with `more` entries merged in by time (stable: on a tie ours come first).
    func merging(_ more: [Entry]) -> ICETrace {
        guard !more.isEmpty else { return self }
        var merged = ICETrace()
        merged.entries.reserveCapacity(entries.count + more.count)
        var i = entries.startIndex, j = more.startIndex
        while i < entries.endIndex || j < more.endIndex {
            if j == more.endIndex || (i < entries.endIndex && entries[i].time <= more[j].time) {
                merged.entries.append(entries[i]); i += 1
            } else {
                merged.entries.append(more[j]); j += 1
            }
        }
        return merged
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

extension ICETrace.Event {
    var text: String {
        switch self {
        case .gatheringStarted: "gathering started"
        case let .localCandidate(c, signalled): "local \(c.candidateString)\(signalled ? "" : " (not signalled: policy)")"
        case .gatheringComplete: "gathering complete"
        case let .remoteCandidateAdded(c): "remote \(c.candidateString)"
        case let .remoteCandidateDropped(c, reason): "remote dropped \(c.candidateString): \(reason)"
        case .remoteEndOfCandidates: "remote end-of-candidates"
        case let .remoteCredentialsSet(ufrag): "remote credentials ufrag=\(ufrag)"
        case let .stateChanged(s, raw): "state \(s.rawValue) (libnice \(raw))"
        case let .selectedPair(p, reason): "selected pair \(p): \(reason)"
        case let .validPair(p): "valid pair \(p): sending on it before nomination (RFC 8445 §12.1)"
        case let .pairCheck(local, remote, state, sent):
            "check \(local) -> \(remote) \(state)" + (sent > 0 ? " (\(sent) request\(sent == 1 ? "" : "s"))" : "")
        case let .pairNominated(local, remote, detail):
            "nominated \(local) -> \(remote)" + (detail.map { " (\($0))" } ?? "")
        case let .checkListNote(note): "check list: \(note)"
        case let .restarted(ufrag): "ICE restart, new local ufrag=\(ufrag)"
        case let .serverWarning(server, reason): "server \(server): \(reason)"
        case let .turnTLSBridge(server, bridge, verifies):
            "server \(server): TLS through local bridge \(bridge)\(verifies ? "" : " (certificate NOT verified)")"
        case let .turnTLSEstablished(server, version, cipher): "server \(server): TLS up (\(version), \(cipher))"
        case let .turnTLSFailed(server, reason): "server \(server): TLS failed: \(reason)"
        case let .roundTripMeasured(rtt, n): "selected pair RTT \((rtt.milliseconds * 1000).rounded() / 1000) ms (answer #\(n))"
        case let .roundTripProbeFailed(reason): "selected pair RTT probe failed: \(reason)"
        }
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
