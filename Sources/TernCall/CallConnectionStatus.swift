/// The health of a call's two paths, reported while the call lasts: the peer transport of an
/// answered call (`CallOutput.connectionStatusChanged`) and the signaling connection
/// (`CallOutput.signalingStatusChanged`, which uses the same values but `connecting`).
public enum CallConnectionStatus: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// A group call's leg to a member who just joined: offer, answer and ICE under way
    /// (`GroupCallSession.legs`; never reported by `connectionStatusChanged`).
    case connecting
    /// Media and data flow.
    case connected
    /// Transport: ICE reported `disconnected` (or `failed`) and ICE restarts are under way, bounded
    /// in number and time (`CallConfiguration.iceRestart…`). Signaling: the connection was lost and
    /// the client reconnects to `resume` the call (`CallConfiguration.signalingResumeTimeout`).
    case reconnecting
    /// The restarts did not help (the call ends with `disconnected`), or the call could not be
    /// resumed on a new signaling connection (it ends with `signalingLost`).
    case failed

    public var description: String { rawValue }
}
