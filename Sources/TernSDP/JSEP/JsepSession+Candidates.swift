extension JsepSession {
    /// Adds a trickled remote candidate (W3C `addIceCandidate`, RFC 8840 §4.4): it is appended to its
    /// section of the remote description, so the negotiated result includes it. An empty candidate marks
    /// end-of-candidates.
    ///
    /// - InvalidStateError: no remote description yet.
    /// - OperationError: no section matches `sdpMid`/`sdpMLineIndex`, the ufrag is not the current one, or
    ///   the candidate does not parse.
    public mutating func addRemoteCandidate(_ candidate: IceCandidateInit) throws(JsepError) {
        guard signalingState != .closed else { throw JsepError(.invalidState, "the session is closed") }
        let usePending = pendingRemoteDescription != nil
        guard var description = remoteDescription else {
            throw JsepError(.invalidState, "addIceCandidate needs a remote description")
        }
        let index: Int
        if let mid = candidate.sdpMid {
            guard let found = description.media.firstIndex(where: { $0.mid == mid }) else {
                throw JsepError(.operation, "no m= section has mid \(mid)")
            }
            index = found
        } else if let line = candidate.sdpMLineIndex {
            guard description.media.indices.contains(line) else { throw JsepError(.operation, "no m= section \(line)") }
            index = line
        } else {
            throw JsepError(.operation, "the candidate has neither sdpMid nor sdpMLineIndex")
        }
        if let ufrag = candidate.usernameFragment,
           ufrag != TransportAttributes.resolve(in: description, index: index).ufrag {
            throw JsepError(.operation, "ufrag \(ufrag) is not the current remote ufrag")
        }
        let parsed: IceCandidate?
        do {
            parsed = try candidate.parsed()
        } catch {
            throw JsepError(.operation, "candidate does not parse: \(error)")
        }
        if let parsed {
            if !description.media[index].candidates.contains(parsed) { description.media[index].append(parsed) }
        } else if !description.media[index].endOfCandidates {
            description.media[index].appendFlag("end-of-candidates")
        }
        if usePending { pendingRemoteDescription = description } else { currentRemoteDescription = description }
    }
}

extension JsepSession {
    /// `description` (a local description this session applied) as W3C `localDescription`
    /// returns it (webrtc-pc §4.4.1.1: "along with any local candidates that have been generated
    /// by the ICE Agent since the offer or answer was created"): the candidates gathered since,
    /// and `a=end-of-candidates` once gathering completed, added to the section trickled
    /// candidates are tagged with (the first bundled section). Only candidates of the
    /// description's own ICE generation (same ufrag) are added. Nil when nothing is missing, so
    /// a caller can keep the applied text byte for byte.
    public func addingLocalCandidates(to description: SessionDescription) -> SessionDescription? {
        var description = description
        let tagged = description.bundleGroups.first?.mids.first ?? description.media.first?.mid
        guard let index = description.media.firstIndex(where: { $0.mid == tagged }),
              TransportAttributes.resolve(in: description, index: index).ufrag == localCredentials.ufrag
        else { return nil }
        let missing = localCandidates.filter { !description.media[index].candidates.contains($0) }
        let endOfCandidates = localGatheringComplete && !description.media[index].endOfCandidates
        guard !missing.isEmpty || endOfCandidates else { return nil }
        for candidate in missing { description.media[index].append(candidate) }
        if endOfCandidates { description.media[index].appendFlag("end-of-candidates") }
        return description
    }
}

extension JsepSession {
    /// `description` (a remote description this session applied) with the candidates and
    /// end-of-candidates `addRemoteCandidate` added to the session's copy since (webrtc-pc
    /// §4.4.1.1: "along with any remote candidates that have been supplied via
    /// addIceCandidate()"), section by section (same mid, same ufrag). Nil when nothing is
    /// missing.
    public func addingRemoteCandidates(to description: SessionDescription) -> SessionDescription? {
        guard let known = remoteDescription else { return nil }
        var description = description
        var changed = false
        for index in description.media.indices {
            guard let mid = description.media[index].mid,
                  let knownIndex = known.media.firstIndex(where: { $0.mid == mid }),
                  TransportAttributes.resolve(in: known, index: knownIndex).ufrag
                    == TransportAttributes.resolve(in: description, index: index).ufrag
            else { continue }
            for candidate in known.media[knownIndex].candidates where !description.media[index].candidates.contains(candidate) {
                description.media[index].append(candidate)
                changed = true
            }
            if known.media[knownIndex].endOfCandidates && !description.media[index].endOfCandidates {
                description.media[index].appendFlag("end-of-candidates")
                changed = true
            }
        }
        return changed ? description : nil
    }
}
