import TernICE

/// W3C `RTCPeerConnectionState`: the aggregate of the ICE and DTLS transports' states.
public enum PeerConnectionState: String, Sendable, Codable, CaseIterable {
    case new, connecting, connected, disconnected, failed, closed

    /// The aggregate per W3C WebRTC §4.3.3 for one bundled transport: failed wins, then
    /// disconnected, then connecting until both ICE and DTLS are up.
    static func aggregate(ice: ICETransportState, dtls: DTLSTransportState, closed: Bool) -> PeerConnectionState {
        if closed { return .closed }
        if ice == .failed || dtls == .failed { return .failed }
        if ice == .disconnected { return .disconnected }
        if ice == .new && dtls == .new { return .new }
        if (ice == .connected || ice == .completed) && dtls == .connected { return .connected }
        if dtls == .closed { return .closed }
        return .connecting
    }
}

/// W3C `RTCDtlsTransportState`.
public enum DTLSTransportState: String, Sendable, Codable, CaseIterable {
    case new, connecting, connected, closed, failed
}
