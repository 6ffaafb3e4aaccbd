import TernCore
extension JSEPSession {
    /// Applies a local description (W3C `setLocalDescription`, RFC 9429 §5.6 and §4.1.8).
    ///
    /// The SDP must be the last one created (else InvalidModificationError); an empty `sdp` for an offer or
    /// answer creates one implicitly. Transitions follow the W3C table; others throw InvalidStateError.
    public mutating func setLocalDescription(_ description: JSEPDescription) throws(JSEPError) {
        guard signalingState != .closed else { throw JSEPError(.invalidState, "the session is closed") }
        var description = description
        if description.sdp.isEmpty, description.type == .offer || description.type == .answer || description.type == .pranswer {
            let created = description.type == .offer ? try createOffer() : try createAnswer()
            description.sdp = created.sdp
        }
        switch description.type {
        case .rollback:
            try rollback()
        case .offer:
            guard signalingState == .stable || signalingState == .haveLocalOffer else {
                throw JSEPError(.invalidState, "cannot set a local offer in state \(signalingState.rawValue)")
            }
            guard let created = lastOffer, created.sdp == description.sdp else {
                throw JSEPError(.invalidModification, "the offer is not the one createOffer returned")
            }
            let parsed = try parse(description.sdp)
            if signalingState == .stable { captureSnapshot() }
            slots = created.slots
            for slot in slots { if case .transceiver(let t) = slot.content { transceivers[t].mid = slot.mid } }
            adoptCredentials(created.credentials)
            iceRestartRequested = false
            pendingLocal = AppliedDescription(description, parsed: parsed)
            signalingState = .haveLocalOffer
        case .answer, .pranswer:
            guard signalingState == .haveRemoteOffer || signalingState == .haveLocalPranswer else {
                throw JSEPError(.invalidState, "cannot set a local \(description.type.rawValue) in state \(signalingState.rawValue)")
            }
            guard let created = lastAnswer, created.sdp == description.sdp else {
                throw JSEPError(.invalidModification, "the answer is not the one createAnswer returned")
            }
            let parsed = try parse(description.sdp)
            adoptCredentials(created.credentials)
            let applied = AppliedDescription(description, parsed: parsed)
            if description.type == .pranswer {
                pendingLocal = applied
                signalingState = .haveLocalPranswer
            } else {
                finish(local: applied, remote: pendingRemote ?? applied, localIsOffer: false)
            }
        }
    }

    /// Applies a remote description (W3C `setRemoteDescription`, RFC 9429 §5.7–5.10).
    ///
    /// - OperationError: the SDP does not parse (the message names the line).
    /// - InvalidAccessError: m= lines removed or reordered, or an active section without ICE credentials
    ///   or DTLS fingerprint.
    /// - InvalidStateError: the type is not allowed in the current state.
    ///
    /// A remote offer in `have-local-offer` first rolls the local offer back (W3C implicit rollback).
    public mutating func setRemoteDescription(_ description: JSEPDescription) throws(JSEPError) {
        guard signalingState != .closed else { throw JSEPError(.invalidState, "the session is closed") }
        switch description.type {
        case .rollback:
            try rollback()
        case .offer:
            guard signalingState == .stable || signalingState == .haveRemoteOffer || signalingState == .haveLocalOffer else {
                throw JSEPError(.invalidState, "cannot set a remote offer in state \(signalingState.rawValue)")
            }
            let parsed = try parse(description.sdp)
            try validateTransport(parsed)
            // Glare: a remote offer while ours is pending rolls ours back first (W3C implicit rollback,
            // "perfect negotiation").
            if signalingState == .haveLocalOffer { try rollback() }
            if signalingState == .stable { captureSnapshot() } else { restoreSnapshot() }
            try associate(offer: parsed)
            pendingRemote = AppliedDescription(description, parsed: parsed)
            signalingState = .haveRemoteOffer
        case .answer, .pranswer:
            guard signalingState == .haveLocalOffer || signalingState == .haveRemotePranswer,
                  let offer = pendingLocal else {
                throw JSEPError(.invalidState, "cannot set a remote \(description.type.rawValue) in state \(signalingState.rawValue)")
            }
            let parsed = try parse(description.sdp)
            guard parsed.media.count == offer.parsed.media.count else {
                throw JSEPError(.invalidAccess, "the answer has \(parsed.media.count) m= sections, the offer \(offer.parsed.media.count)")
            }
            for (index, section) in parsed.media.enumerated() {
                if let mid = section.mid, mid != slots[index].mid {
                    throw JSEPError(.invalidAccess, "m= section \(index) has mid \(mid), the offer has \(slots[index].mid)")
                }
            }
            try validateTransport(parsed)
            let applied = AppliedDescription(description, parsed: parsed)
            if description.type == .pranswer {
                pendingRemote = applied
                signalingState = .haveRemotePranswer
            } else {
                finish(local: offer, remote: applied, localIsOffer: true)
            }
        }
    }

    /// Rollback (RFC 9429 §4.1.8.2): back to `stable` and the state before the offer.
    mutating func rollback() throws(JSEPError) {
        guard signalingState == .haveLocalOffer || signalingState == .haveRemoteOffer else {
            throw JSEPError(.invalidState, "cannot roll back in state \(signalingState.rawValue)")
        }
        restoreSnapshot()
        snapshot = nil
        pendingLocal = nil
        pendingRemote = nil
        signalingState = .stable
    }

    private func parse(_ sdp: String) throws(JSEPError) -> SessionDescription {
        do {
            return try SDPParser().parse(sdp)
        } catch {
            throw JSEPError(.operation, "SDP does not parse: \(error)")
        }
    }

    /// Switches to new ICE credentials; candidates of the old generation no longer apply (RFC 8839 §4.4.1.1.1).
    private mutating func adoptCredentials(_ credentials: ICECredentials) {
        guard credentials != localCredentials else { return }
        localCredentials = credentials
        localCandidates = []
        localGatheringComplete = false
    }

    private mutating func captureSnapshot() {
        snapshot = Snapshot(slots: slots, transceivers: transceivers, localCredentials: localCredentials)
    }

    /// Restores the snapshot, keeping transceivers the application added since (unassociated again).
    private mutating func restoreSnapshot() {
        guard let snapshot else { return }
        var kept = snapshot.transceivers
        for transceiver in transceivers.dropFirst(snapshot.transceivers.count) where !transceiver.createdByRemote {
            var fresh = transceiver
            fresh.mid = nil
            kept.append(fresh)
        }
        transceivers = kept
        slots = snapshot.slots
        localCredentials = snapshot.localCredentials
    }

    /// Completes an exchange (RFC 9429 §5.10–5.11): updates transceivers and the DTLS role, moves to `stable`.
    private mutating func finish(local applied: AppliedDescription, remote appliedRemote: AppliedDescription, localIsOffer: Bool) {
        let local = applied.parsed, remote = appliedRemote.parsed
        let offer = localIsOffer ? local : remote
        let answer = localIsOffer ? remote : local
        for (index, slot) in slots.enumerated() {
            guard case .transceiver(let t) = slot.content, index < answer.media.count else { continue }
            let section = answer.media[index]
            if section.isRejected || transceivers[t].isStopping {
                transceivers[t].isStopped = true
                transceivers[t].isStopping = false
                transceivers[t].currentDirection = nil
                transceivers[t].negotiatedCodecs = []
            } else {
                let direction = section.direction ?? .sendrecv
                transceivers[t].currentDirection = localIsOffer ? direction.reversed : direction
                transceivers[t].negotiatedCodecs = CodecNegotiation.negotiated(offer: offer.media[index], answer: section)
            }
        }
        if let localSetup = firstActiveIndex(local).flatMap({ TransportAttributes.resolve(in: local, index: $0).setup }),
           let remoteSetup = firstActiveIndex(remote).flatMap({ TransportAttributes.resolve(in: remote, index: $0).setup }) {
            // An answer must not say actpass (RFC 8842 §5.3); tolerate it as passive, so we become the client.
            let effective = remoteSetup != .actpass ? remoteSetup : (localSetup == .actpass ? .passive : localSetup.counterpart)
            dtlsRole = DTLSRole(remoteSetup: effective)
        }
        currentLocal = applied
        currentRemote = appliedRemote
        currentLocalIsOffer = localIsOffer
        pendingLocal = nil
        pendingRemote = nil
        snapshot = nil
        signalingState = .stable
    }
}

extension SetupRole {
    /// The role the other side takes (active ⇄ passive).
    var counterpart: SetupRole {
        switch self {
        case .active: .passive
        case .passive: .active
        case .actpass, .holdconn: self
        }
    }
}
