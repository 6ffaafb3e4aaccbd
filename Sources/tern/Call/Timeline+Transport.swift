import TernPeer

extension Timeline {
    /// Prints the transport facts of a connected participant once: ICE trace and pair, DTLS parameters.
    func logTransport(of participant: CallParticipant) {
        guard let peer = participant.snapshot.peer else { return }
        if let trace = peer.iceTrace {
            block("ice", "\(participant.name): ICE trace", trace.description)
        }
        if let pair = peer.selectedCandidatePair {
            log("ice", "selected pair: \(pair.local) <-> \(pair.remote)",
                fields: ["local": .string(pair.local.type.rawValue), "remote": .string(pair.remote.type.rawValue)])
        }
        if let dtls = peer.dtlsConnectionInfo {
            log("dtls", "\(participant.name): \(dtls)")
        }
    }
}
