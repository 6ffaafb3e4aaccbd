public import TernSDP

/// W3C `addTrack` / `removeTrack`: sending a local track without managing transceivers.
extension PeerConnection {
    /// Starts sending a local `kind` track (W3C `addTrack`) and returns its sender; fires
    /// `.negotiationNeeded`.
    ///
    /// As the W3C algorithm does, it first reuses a transceiver of that kind that has never sent
    /// — typically one a remote offer created (an answerer that adds its track after
    /// `setRemoteDescription(offer)` answers the offered section `sendrecv` instead of adding a
    /// section): `recvonly` becomes `sendrecv`, `inactive` becomes `sendonly`. Otherwise it adds a
    /// `sendrecv` transceiver.
    /// - Parameters:
    ///   - kind: audio or video.
    ///   - trackId: the track id announced in `a=msid` (default: derived from the SSRC).
    ///   - streamId: the media stream id announced in `a=msid`; tracks sharing one are played in sync.
    public func addTrack(_ kind: MediaKind, trackId: String? = nil,
                         streamId: String = "tern-stream") throws(PeerConnectionError) -> RTPSender {
        let sender = makeSender(kind)
        let parameters = senderParameters(for: sender, streamId: streamId, trackId: trackId)
        try advance { core throws(PeerConnectionError) in try core.addTrack(kind, sender: parameters) }
        objects.add(sender: sender)
        return sender
    }

    /// Stops sending `sender`'s track (W3C `removeTrack`): frames sent to it from now on are
    /// dropped, and its transceiver stops sending at the next negotiation (`sendrecv` becomes
    /// `recvonly`, `sendonly` becomes `inactive`); receiving goes on. Fires `.negotiationNeeded`.
    /// Throws `.invalidState` for a sender this connection did not create.
    public func removeTrack(_ sender: RTPSender) throws(PeerConnectionError) {
        guard objects.contains(sender: sender) else {
            throw .invalidState("removeTrack: this sender does not belong to this peer connection")
        }
        try advance { core throws(PeerConnectionError) in try core.removeTrack(ssrc: sender.ssrc) }
        objects.remove(sender: sender)
    }
}

extension RTPDirection {
    /// The direction with sending added (W3C addTrack: recvonly → sendrecv, inactive → sendonly).
    var addingSend: RTPDirection {
        switch self {
        case .recvonly, .sendrecv: .sendrecv
        case .inactive, .sendonly: .sendonly
        }
    }

    /// The direction with sending removed (W3C removeTrack: sendrecv → recvonly, sendonly → inactive).
    var removingSend: RTPDirection {
        switch self {
        case .sendrecv, .recvonly: .recvonly
        case .sendonly, .inactive: .inactive
        }
    }
}
