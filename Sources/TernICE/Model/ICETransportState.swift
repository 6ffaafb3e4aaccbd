/// W3C `RTCIceTransportState` (webrtc-pc §5.6.3); raw values are the exact W3C strings.
public enum ICETransportState: String, Sendable, Codable, CaseIterable {
    /// Gathering or waiting for remote candidates; no checks yet.
    case new
    /// Connectivity checks are running (libnice CONNECTING).
    case checking
    /// A usable pair was found (libnice CONNECTED or READY).
    case connected
    /// Checks are finished: READY, local gathering complete and remote end-of-candidates received.
    case completed
    /// Connectivity was lost after being connected (consent or keepalive failures).
    case disconnected
    /// All pairs failed, or consent expired (RFC 7675).
    case failed
    /// `close()` was called.
    case closed
}

/// W3C `RTCIceGathererState` / `RTCIceGatheringState`; raw values are the exact W3C strings.
public enum ICEGatheringState: String, Sendable, Codable, CaseIterable {
    /// Gathering has not started.
    case new
    /// Candidates are being gathered.
    case gathering
    /// Gathering finished (end-of-candidates, RFC 8838 §4.4).
    case complete
}

/// Which side nominates the pair (RFC 8445 §6.1.1). The signalling layer decides.
public enum ICERole: String, Sendable, Codable, CaseIterable {
    /// Sends USE-CANDIDATE (regular nomination, RFC 8445 §8.1.1).
    case controlling
    /// Accepts the controlling side's nomination.
    case controlled
}

/// W3C `RTCIceTransportPolicy`: which local candidates may be used.
public enum ICETransportPolicy: String, Sendable, Codable, CaseIterable {
    /// Host, server-reflexive and relay candidates.
    case all
    /// Only TURN relay candidates: the peer never learns our addresses.
    case relay
}
