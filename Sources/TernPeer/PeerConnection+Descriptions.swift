public import TernSDP

/// W3C's description attributes (webrtc-pc §4.4.1.1), read from the core's JSEP session.
extension PeerConnection {
    /// W3C `localDescription`: `pendingLocalDescription ?? currentLocalDescription`.
    ///
    /// Carries the candidates gathered since it was created, and `a=end-of-candidates` once
    /// gathering is complete: a peer that signals this after `setLocalDescription` sends its
    /// host candidates in the description and needs no trickle messages for them.
    public var localDescription: JSEPDescription? {
        read(\.localDescription)
    }

    /// W3C `currentLocalDescription`: our side of the last completed exchange (with candidates).
    public var currentLocalDescription: JSEPDescription? {
        read { $0.description(\.currentLocal, local: true) }
    }

    /// W3C `pendingLocalDescription`: our offer or provisional answer awaiting the exchange's end
    /// (with candidates).
    public var pendingLocalDescription: JSEPDescription? {
        read { $0.description(\.pendingLocal, local: true) }
    }

    /// W3C `remoteDescription`: `pendingRemoteDescription ?? currentRemoteDescription`, with the
    /// candidates `addICECandidate` supplied since.
    public var remoteDescription: JSEPDescription? {
        read(\.remoteDescription)
    }

    /// W3C `currentRemoteDescription` (with the candidates supplied since).
    public var currentRemoteDescription: JSEPDescription? {
        read { $0.description(\.currentRemote, local: false) }
    }

    /// W3C `pendingRemoteDescription` (with the candidates supplied since).
    public var pendingRemoteDescription: JSEPDescription? {
        read { $0.description(\.pendingRemote, local: false) }
    }
}
