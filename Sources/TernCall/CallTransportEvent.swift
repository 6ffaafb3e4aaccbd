/// What the driver observed of the peer connection (RTCPeerConnection
/// `connectionState`, reduced to what the call core needs).
public enum CallTransportEvent: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// ICE and DTLS are connected (W3C `connected`).
    case connected
    /// Consent or connectivity was lost; may recover (W3C `disconnected`).
    case disconnected
    /// ICE gave up (W3C `failed`); an ICE restart may still recover it.
    case failed

    public var description: String { rawValue }
}
