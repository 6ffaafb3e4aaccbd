extension JSEPSession {
    /// Adds a trickled remote candidate (W3C `addICECandidate`, RFC 8840 §4.4): it is appended to its
    /// section of the remote description, so the negotiated result includes it. An empty candidate marks
    /// end-of-candidates.
    ///
    /// - InvalidStateError: no remote description yet.
    /// - OperationError: no section matches `sdpMid`/`sdpMLineIndex`, the ufrag is not the current one, or
    ///   the candidate does not parse.
    /// Trickled candidates kept per remote m= section; past it `addRemoteCandidate` refuses with
    /// OperationError. Browsers signal a few dozen at most; a peer sending thousands would make
    /// each addition cost more than the last (every one is checked against those kept).
    public static let maximumRemoteCandidatesPerSection = 256

    public mutating func addRemoteCandidate(_ candidate: ICECandidateInit) throws(JSEPError) {
        guard signalingState != .closed else { throw JSEPError(.invalidState, "the session is closed") }
        let usePending = pendingRemoteDescription != nil
        guard var description = remoteDescription else {
            throw JSEPError(.invalidState, "addICECandidate needs a remote description")
        }
        let index: Int
        if let mid = candidate.sdpMid {
            guard let found = description.media.firstIndex(where: { $0.mid == mid }) else {
                throw JSEPError(.operation, "no m= section has mid \(mid)")
            }
            index = found
        } else if let line = candidate.sdpMLineIndex {
            guard description.media.indices.contains(line) else { throw JSEPError(.operation, "no m= section \(line)") }
            index = line
        } else {
            throw JSEPError(.operation, "the candidate has neither sdpMid nor sdpMLineIndex")
        }
        if let ufrag = candidate.usernameFragment,
           ufrag != TransportAttributes.resolve(in: description, index: index).ufrag {
            throw JSEPError(.operation, "ufrag \(ufrag) is not the current remote ufrag")
        }
        let parsed: ICECandidate?
        do {
            parsed = try candidate.parsed()
        } catch {
            throw JSEPError(.operation, "candidate does not parse: \(error)")
        }
        if parsed != nil, description.media[index].attributes(named: "candidate").count >= Self.maximumRemoteCandidatesPerSection {
            throw JSEPError(.operation, "the remote description's section \(index) already has \(Self.maximumRemoteCandidatesPerSection) candidates (JSEPSession.maximumRemoteCandidatesPerSection)")
        }
        description.media[index].merge(candidates: parsed.map { [$0] } ?? [], endOfCandidates: parsed == nil)
        if usePending { pendingRemote?.parsed = description } else { currentRemote?.parsed = description }
    }
}

extension JSEPSession {
    /// Marks end-of-candidates in every section of the remote description (W3C
    /// `addICECandidate` with neither mid nor index: it applies to all media descriptions).
    public mutating func addRemoteEndOfCandidates() {
        for index in remoteDescription?.media.indices ?? 0..<0 {
            try? addRemoteCandidate(ICECandidateInit(candidate: "", sdpMLineIndex: index))
        }
    }

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
              TransportAttributes.resolve(in: description, index: index).ufrag == localCredentials.ufrag,
              description.media[index].merge(candidates: localCandidates, endOfCandidates: localGatheringComplete)
        else { return nil }
        return description
    }

    /// `description` (a remote description this session applied) with the candidates and
    /// end-of-candidates `addRemoteCandidate` added to the session's copy since (webrtc-pc
    /// §4.4.1.1: "along with any remote candidates that have been supplied via
    /// addICECandidate()"), section by section (same mid, same ufrag). Nil when nothing is
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
            let section = known.media[knownIndex]
            if description.media[index].merge(candidates: section.candidates, endOfCandidates: section.endOfCandidates) {
                changed = true
            }
        }
        return changed ? description : nil
    }
}

extension MediaDescription {
    /// Appends the candidates this section lacks, and `a=end-of-candidates` if asked for and
    /// missing. Returns whether anything was added.
    @discardableResult
    mutating func merge(candidates: [ICECandidate], endOfCandidates: Bool) -> Bool {
        let missing = candidates.filter { !self.candidates.contains($0) }
        for candidate in missing { append(candidate) }
        let flag = endOfCandidates && !self.endOfCandidates
        if flag { appendFlag("end-of-candidates") }
        return !missing.isEmpty || flag
    }
}
