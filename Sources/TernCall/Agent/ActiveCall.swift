import TernPeer
import TernSignaling

/// One call's transport objects, owned by `CallAgent`.
struct ActiveCall {
    let peer: PeerConnection
    let isCaller: Bool
    var audio: RTPTransceiver?
    var video: RTPTransceiver?
    var manageChannel: DataChannel?
    /// Envelopes the core produced before the channel opened; sent on open.
    var queuedEnvelopes: [String] = []
    /// An offer/answer for a video change is in flight; tell the core when it completes.
    var videoRenegotiationPending = false
    /// Local candidates wait until our first description has been sent: a peer that gets a
    /// candidate before the description it belongs to must refuse it (W3C addICECandidate).
    var descriptionSent = false
    var pendingCandidates: [SignalingICECandidate?] = []
    var tasks: [Task<Void, Never>] = []

    func close() {
        for task in tasks { task.cancel() }
        peer.close()
    }
}
