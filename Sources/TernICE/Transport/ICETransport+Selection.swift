extension ICETransport {
    /// Why ICE carries data on `pair`, for the trace: who nominated it (RFC 8445 §8.1.1: only
    /// the controlling agent nominates), how, and what kind of path it is.
    func selectionReason(_ pair: ICECandidatePair, role: ICERole) -> String {
        let controlling = role == .controlling
        let who: String
        switch (controlling, configuration.nomination == .regular) {
        case (true, true):
            who = "nominated by this agent (controlling, regular nomination: a check on it succeeded, then a check with USE-CANDIDATE)"
        case (true, false):
            who = "nominated by this agent (controlling, aggressive nomination: USE-CANDIDATE on every check, first to succeed)"
        case (false, _):
            who = "nominated by the peer (controlling: its check with USE-CANDIDATE on this pair succeeded)"
        }
        let path = pair.isDirect ? "direct" : "through a TURN relay"
        return "\(who); \(pair.local.type) -> \(pair.remote.type), \(path), "
            + "pair priority \(pair.priority(localIsControlling: controlling))"
    }
}
