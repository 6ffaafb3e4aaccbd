public import TernCore

/// The SRTP master keys and salts exported from a DTLS-SRTP handshake (RFC 5764 §4.2):
/// `EXTRACTOR-dtls_srtp` yields client_key | server_key | client_salt | server_salt.
///
/// Secret: `description` does not print the keys.
public struct SRTPKeyingMaterial: Sendable, Equatable, CustomStringConvertible {
    /// The negotiated profile.
    public var profile: SRTPProtectionProfile
    /// Master key the DTLS client uses to protect what it sends.
    public var clientWriteKey: [UInt8]
    /// Master salt of the DTLS client's sending direction.
    public var clientWriteSalt: [UInt8]
    /// Master key the DTLS server uses to protect what it sends.
    public var serverWriteKey: [UInt8]
    /// Master salt of the DTLS server's sending direction.
    public var serverWriteSalt: [UInt8]

    /// The exporter label of RFC 5764 §4.2.
    public static let exporterLabel = "EXTRACTOR-dtls_srtp"

    /// Keying material from its four parts.
    public init(profile: SRTPProtectionProfile, clientWriteKey: [UInt8], clientWriteSalt: [UInt8],
                serverWriteKey: [UInt8], serverWriteSalt: [UInt8]) {
        self.profile = profile
        self.clientWriteKey = clientWriteKey
        self.clientWriteSalt = clientWriteSalt
        self.serverWriteKey = serverWriteKey
        self.serverWriteSalt = serverWriteSalt
    }

    /// Splits exporter output of `2 * (keyLength + saltLength)` bytes; nil if the length is wrong.
    public init?(profile: SRTPProtectionProfile, exported: [UInt8]) {
        let k = profile.keyLength, s = profile.saltLength
        guard exported.count == 2 * (k + s) else { return nil }
        self.init(profile: profile,
                  clientWriteKey: Array(exported[0..<k]),
                  clientWriteSalt: Array(exported[2 * k..<2 * k + s]),
                  serverWriteKey: Array(exported[k..<2 * k]),
                  serverWriteSalt: Array(exported[2 * k + s..<2 * k + 2 * s]))
    }

    /// Key and salt protecting what `role` sends.
    public func localWrite(for role: DTLSRole) -> (key: [UInt8], salt: [UInt8]) {
        role == .client ? (clientWriteKey, clientWriteSalt) : (serverWriteKey, serverWriteSalt)
    }

    /// Key and salt protecting what `role` receives (the peer's write direction).
    public func remoteWrite(for role: DTLSRole) -> (key: [UInt8], salt: [UInt8]) {
        role == .client ? (serverWriteKey, serverWriteSalt) : (clientWriteKey, clientWriteSalt)
    }

    public var description: String { "SRTPKeyingMaterial(\(profile), keys redacted)" }
}
