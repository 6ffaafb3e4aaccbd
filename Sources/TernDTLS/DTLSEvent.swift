/// What a `DTLSEndpoint` reports; drained with `DTLSEndpoint.pollEvent()`.
public enum DTLSEvent: Sendable, Equatable {
    /// The handshake finished and the peer's fingerprint matched. Keying material is nil
    /// when use_srtp was not negotiated (a data-channel-only association).
    case connected(DTLSConnectionInfo, SRTPKeyingMaterial?)
    /// One application data record (for SCTP, RFC 8261).
    case applicationData([UInt8])
    /// An alert was sent or received (close_notify included).
    case alert(DTLSAlert)
    /// The peer closed the association with close_notify (RFC 5246 §7.2.1); this side replied.
    case closed
    /// The association failed; nothing more will be delivered.
    case failed(DTLSError)
}
