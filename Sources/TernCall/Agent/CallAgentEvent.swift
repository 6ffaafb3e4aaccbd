public import TernPeer

/// What a `CallAgent` reports to the application, in order.
public enum CallAgentEvent: Sendable {
    /// Everything the call core reports: state changes (with call id and txCode), incoming
    /// calls, connection status, manage-call events, video requests and updates.
    case call(CallOutput)
    /// The peer connection of a call was created (for stats, traces and media).
    case peerCreated(callId: String, PeerConnection)
    /// Media from the remote side started on a new track.
    case remoteTrack(callId: String, RemoteTrack)
    /// The `manage-call` data channel opened.
    case manageChannelOpen(callId: String)
    /// The remote side opened a data channel of its own (any label but `manage-call`, which the
    /// agent keeps): the application consumes its events.
    case dataChannel(callId: String, DataChannel)
    /// A description was sent or applied (the debug tool prints these).
    case description(callId: String, local: Bool, type: String, sdp: String)
    /// The signaling server refused something, or a transport step failed; the call goes on
    /// unless the core ends it.
    case problem(callId: String?, String)
}
