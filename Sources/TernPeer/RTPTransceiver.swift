public import TernSDP

/// A W3C `RTCRtpTransceiver`: one m-section's sender and the direction we want for it.
/// Created by `PeerConnection.addTransceiver`; its `mid` is set by negotiation.
public final class RTPTransceiver: Sendable {
    /// Audio or video.
    public let kind: MediaKind
    /// Sends our media on this section.
    public let sender: RTPSender
    /// The position in `PeerConnection`'s JSEP transceiver list.
    let index: Int
    private let peer: PeerConnection

    init(kind: MediaKind, sender: RTPSender, index: Int, peer: PeerConnection) {
        self.kind = kind
        self.sender = sender
        self.index = index
        self.peer = peer
    }

    /// The m-section's mid once negotiated (W3C `mid`).
    public var mid: String? { peer.jsepTransceiver(at: index)?.mid }

    /// The direction we want (W3C `direction`); changing it needs negotiation
    /// (hold is `sendonly` or `inactive`, RFC 3264 §8.4).
    public var direction: RTPDirection { peer.jsepTransceiver(at: index)?.direction ?? .inactive }

    /// The direction negotiation settled on (W3C `currentDirection`), nil before.
    public var currentDirection: RTPDirection? { peer.jsepTransceiver(at: index)?.currentDirection }

    /// Changes the wanted direction; fires `.negotiationNeeded`.
    public func setDirection(_ direction: RTPDirection) throws(PeerConnectionError) {
        try peer.setDirection(direction, transceiverAt: index)
    }

    /// Stops the transceiver: its section is rejected (port 0) at the next negotiation.
    public func stop() throws(PeerConnectionError) {
        try peer.stopTransceiver(at: index)
    }
}
