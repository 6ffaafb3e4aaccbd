public import TernSDP

/// W3C's four description slots (webrtc-pc §4.4.1.5, "set the session description"): an offer or
/// a provisional answer is pending until the final answer makes the exchange current; a
/// rollback discards what was pending. `localDescription`/`remoteDescription` are the pending
/// one if there is one, else the current one.
struct AppliedDescriptions {
    var pendingLocal: JsepDescription?
    var currentLocal: JsepDescription?
    var pendingRemote: JsepDescription?
    var currentRemote: JsepDescription?

    /// Records a description `setLocalDescription` applied.
    mutating func applyLocal(_ description: JsepDescription) {
        switch description.type {
        case .offer, .pranswer:
            pendingLocal = description
        case .answer:
            currentLocal = description
            currentRemote = pendingRemote
            pendingLocal = nil
            pendingRemote = nil
        case .rollback:
            pendingLocal = nil
            if pendingRemote?.type == .pranswer { pendingRemote = nil }
        }
    }

    /// Records a description `setRemoteDescription` applied.
    mutating func applyRemote(_ description: JsepDescription) {
        switch description.type {
        case .offer:
            // In have-local-offer a remote offer rolls our offer back first (perfect negotiation).
            pendingLocal = nil
            pendingRemote = description
        case .pranswer:
            pendingRemote = description
        case .answer:
            currentRemote = description
            currentLocal = pendingLocal
            pendingLocal = nil
            pendingRemote = nil
        case .rollback:
            pendingRemote = nil
            if pendingLocal?.type == .pranswer { pendingLocal = nil }
        }
    }
}

extension PeerConnection {
    /// W3C `localDescription`: `pendingLocalDescription ?? currentLocalDescription`.
    ///
    /// Carries the candidates gathered since it was created, and `a=end-of-candidates` once
    /// gathering is complete (webrtc-pc §4.4.1.1): a peer that signals this after
    /// `setLocalDescription` sends its host candidates in the description and needs no trickle
    /// messages for them.
    public var localDescription: JsepDescription? {
        state.withLock { state in
            Self.withLocalCandidates(state.descriptions.pendingLocal ?? state.descriptions.currentLocal, state.jsep)
        }
    }

    /// W3C `currentLocalDescription`: our side of the last completed exchange (with candidates).
    public var currentLocalDescription: JsepDescription? {
        state.withLock { state in Self.withLocalCandidates(state.descriptions.currentLocal, state.jsep) }
    }

    /// W3C `pendingLocalDescription`: our offer or provisional answer awaiting the exchange's end
    /// (with candidates).
    public var pendingLocalDescription: JsepDescription? {
        state.withLock { state in Self.withLocalCandidates(state.descriptions.pendingLocal, state.jsep) }
    }

    /// W3C `remoteDescription`: `pendingRemoteDescription ?? currentRemoteDescription`, with the
    /// candidates `addIceCandidate` supplied since.
    public var remoteDescription: JsepDescription? {
        state.withLock { state in
            Self.withRemoteCandidates(state.descriptions.pendingRemote ?? state.descriptions.currentRemote, state.jsep)
        }
    }

    /// W3C `currentRemoteDescription` (with the candidates supplied since).
    public var currentRemoteDescription: JsepDescription? {
        state.withLock { state in Self.withRemoteCandidates(state.descriptions.currentRemote, state.jsep) }
    }

    /// W3C `pendingRemoteDescription` (with the candidates supplied since).
    public var pendingRemoteDescription: JsepDescription? {
        state.withLock { state in Self.withRemoteCandidates(state.descriptions.pendingRemote, state.jsep) }
    }

    private static func withLocalCandidates(_ applied: JsepDescription?, _ jsep: JsepSession) -> JsepDescription? {
        adding(to: applied, jsep.addingLocalCandidates(to:))
    }

    private static func withRemoteCandidates(_ applied: JsepDescription?, _ jsep: JsepSession) -> JsepDescription? {
        adding(to: applied, jsep.addingRemoteCandidates(to:))
    }

    /// The applied text as is, unless `augment` has candidates to add to it.
    private static func adding(to applied: JsepDescription?,
                               _ augment: (SessionDescription) -> SessionDescription?) -> JsepDescription? {
        guard let applied else { return nil }
        guard let parsed = try? SDPParser().parse(applied.sdp), let augmented = augment(parsed) else { return applied }
        return JsepDescription(type: applied.type, sdp: augmented.text)
    }
}
