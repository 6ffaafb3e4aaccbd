import TernPeer

extension Timeline {
    /// Prints the transport facts of a connected participant once: ICE trace and pair, DTLS parameters.
    func logTransport(of participant: CallParticipant) {
        guard let peer = participant.snapshot.peer else { return }
        if let trace = peer.iceTrace {
            block("ice", "\(participant.name): ICE trace", trace.description)
        }
        if let pair = peer.selectedCandidatePair {
            let reason = peer.iceTrace?.selection?.reason
            log("ice", "selected pair: \(pair.local) <-> \(pair.remote)" + (reason.map { ", \($0)" } ?? ""),
                fields: ["local": .string(pair.local.type), "remote": .string(pair.remote.type),
                         "reason": reason.map(JSONValue.string) ?? .null])
        }
        if let dtls = peer.dtlsConnectionInfo {
            log("dtls", "\(participant.name): \(dtls)")
        }
    }
}
