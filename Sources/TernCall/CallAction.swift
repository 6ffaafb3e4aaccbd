public import TernSignaling
/// Work the call core asks its I/O driver to do on the peer connection or the
/// signaling connection.
public enum CallAction: Hashable, Sendable, CustomStringConvertible {
    /// Open the signaling connection (and register).
    case connectSignaling
    /// Close the signaling connection.
    case disconnectSignaling
    /// Caller side, after `accept`: create the peer connection, open the reliable
    /// ordered data channel labelled `manage-call`, and send the first offer.
    case createOffer(callId: String, media: MediaOptions)
    /// Callee side, after sending `accept`: create the peer connection and wait for the offer.
    case awaitOffer(callId: String, media: MediaOptions)
    /// `restartICE()` and send the new offer: the caller while reconnecting (the callee never
    /// restarts by itself, so those offers cannot cross), or either side when its app asks.
    case restartICE(callId: String)
    /// Stop sending the local camera (an operation such as OCR uses it).
    case pauseCamera(callId: String)
    /// Send the local camera again.
    case resumeCamera(callId: String)
    /// Set the video transceiver to this direction and send a new offer.
    case renegotiate(callId: String, video: VideoMode)
    /// The other side will offer this video direction (seen from this side): prepare
    /// the camera track / transceiver and answer the coming offer.
    case prepareVideo(callId: String, video: VideoMode)
    /// Put every transceiver `inactive` and renegotiate (hold) …
    case hold(callId: String)
    /// … or restore the directions from before the hold.
    case unhold(callId: String)
    /// Enable or disable the local camera track (direction kept: the other side sees black).
    case setCameraTrackEnabled(callId: String, enabled: Bool)
    /// Close the peer connection of this call.
    case closePeer(callId: String)

    public var description: String {
        switch self {
        case .connectSignaling: "connectSignaling"
        case .disconnectSignaling: "disconnectSignaling"
        case .createOffer(let id, let media): "createOffer(\(id), \(media))"
        case .awaitOffer(let id, let media): "awaitOffer(\(id), \(media))"
        case .restartICE(let id): "restartICE(\(id))"
        case .pauseCamera(let id): "pauseCamera(\(id))"
        case .resumeCamera(let id): "resumeCamera(\(id))"
        case .renegotiate(let id, let video): "renegotiate(\(id), video \(video))"
        case .prepareVideo(let id, let video): "prepareVideo(\(id), video \(video))"
        case .hold(let id): "hold(\(id))"
        case .unhold(let id): "unhold(\(id))"
        case .setCameraTrackEnabled(let id, let enabled): "setCameraTrackEnabled(\(id), \(enabled))"
        case .closePeer(let id): "closePeer(\(id))"
        }
    }
}
