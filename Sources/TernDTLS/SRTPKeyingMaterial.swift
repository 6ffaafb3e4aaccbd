public import TernCore

/// The SRTP master keys and salts exported from a DTLS-SRTP handshake (RFC 5764 §4.2):
/// `EXTRACTOR-dtls_srtp` yields client_key | server_key | client_salt | server_salt.
///
/// Secret: `description` does not print the keys.
public struct SRTPKeyingMaterial: Sendable, Equatable, CustomStringConvertible {
    /// The negotiated profile.
    public let profile: SRTPProtectionProfile
    /// client_key | server_key | client_salt | server_salt, wiped when the last copy goes.
    private let secret: SecretBytes

    /// The exporter label of RFC 5764 §4.2.
    public static let exporterLabel = "EXTRACTOR-dtls_srtp"

    /// Keying material from its four parts (tests; the exporter's output goes through `exported:`).
    public init(profile: SRTPProtectionProfile, clientWriteKey: [UInt8], clientWriteSalt: [UInt8],
                serverWriteKey: [UInt8], serverWriteSalt: [UInt8]) {
        self.profile = profile
        secret = SecretBytes(copying: clientWriteKey + serverWriteKey + clientWriteSalt + serverWriteSalt)
    }

    /// Takes exporter output of `2 * (keyLength + saltLength)` bytes; nil if the length is wrong.
    public init?(profile: SRTPProtectionProfile, exported: [UInt8]) {
        guard exported.count == 2 * (profile.keyLength + profile.saltLength) else { return nil }
        self.profile = profile
        secret = SecretBytes(copying: exported)
    }

    private var k: Int { profile.keyLength }
    private var s: Int { profile.saltLength }

    /// Master key the DTLS client uses to protect what it sends (a copy, not wiped).
    public var clientWriteKey: [UInt8] { secret.copy(0..<k) }
    /// Master key the DTLS server uses to protect what it sends (a copy, not wiped).
    public var serverWriteKey: [UInt8] { secret.copy(k..<2 * k) }
    /// Master salt of the DTLS client's sending direction (a copy, not wiped).
    public var clientWriteSalt: [UInt8] { secret.copy(2 * k..<2 * k + s) }
    /// Master salt of the DTLS server's sending direction (a copy, not wiped).
    public var serverWriteSalt: [UInt8] { secret.copy(2 * k + s..<2 * k + 2 * s) }

    /// Key and salt protecting what `role` sends (copies, not wiped).
    public func localWrite(for role: DTLSRole) -> (key: [UInt8], salt: [UInt8]) {
        role == .client ? (clientWriteKey, clientWriteSalt) : (serverWriteKey, serverWriteSalt)
    }

    /// Key and salt protecting what `role` receives (the peer's write direction; copies, not wiped).
    public func remoteWrite(for role: DTLSRole) -> (key: [UInt8], salt: [UInt8]) {
        role == .client ? (serverWriteKey, serverWriteSalt) : (clientWriteKey, clientWriteSalt)
    }

    /// key | salt of one sending direction in a buffer wiped after `body` (libsrtp's master key).
    func withMasterKey<Result, Failure: Error>(sentBy client: Bool, _ body: (inout [UInt8]) throws(Failure) -> Result)
        throws(Failure) -> Result
    {
        var master = [UInt8](repeating: 0, count: k + s)
        defer { SecretBytes.wipe(&master) }
        secret.withBytes { bytes in
            let keyStart = client ? 0 : k, saltStart = client ? 2 * k : 2 * k + s
            for index in 0..<k { master[index] = bytes[keyStart + index] }
            for index in 0..<s { master[k + index] = bytes[saltStart + index] }
        }
        return try body(&master)
    }

    public static func == (a: SRTPKeyingMaterial, b: SRTPKeyingMaterial) -> Bool {
        a.profile == b.profile && a.secret.withBytes { x in b.secret.withBytes { y in x.elementsEqual(y) } }
    }

    public var description: String { "SRTPKeyingMaterial(\(profile), keys redacted)" }
}
