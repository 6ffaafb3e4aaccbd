public import TernCore

/// What was negotiated, for stats and traces (no secrets).
public struct DTLSConnectionInfo: Sendable, Equatable, CustomStringConvertible {
    /// This endpoint's role.
    public var role: DTLSRole
    /// Always "DTLSv1.2".
    public var protocolVersion: String
    /// OpenSSL's name of the cipher suite, e.g. "ECDHE-ECDSA-AES128-GCM-SHA256".
    public var cipherSuite: String
    /// The use_srtp profile, or nil when the peer did not negotiate use_srtp.
    public var srtpProfile: SRTPProtectionProfile?
    /// This endpoint's certificate fingerprint (SHA-256).
    public var localFingerprint: DTLSFingerprint
    /// The peer's certificate fingerprint, in the hash of the SDP fingerprint that matched.
    public var remoteFingerprint: DTLSFingerprint

    /// Connection info from its parts (the endpoint fills it in; tests and traces may build one).
    public init(role: DTLSRole, protocolVersion: String = "DTLSv1.2", cipherSuite: String,
                srtpProfile: SRTPProtectionProfile?, localFingerprint: DTLSFingerprint,
                remoteFingerprint: DTLSFingerprint) {
        self.role = role
        self.protocolVersion = protocolVersion
        self.cipherSuite = cipherSuite
        self.srtpProfile = srtpProfile
        self.localFingerprint = localFingerprint
        self.remoteFingerprint = remoteFingerprint
    }

    public var description: String {
        "\(protocolVersion) \(role.rawValue) \(cipherSuite) srtp=\(srtpProfile?.openSSLName ?? "none") "
            + "local=\(localFingerprint.sdpValue) remote=\(remoteFingerprint.sdpValue)"
    }
}
