/// The DTLS-SRTP protection profiles Tern negotiates (RFC 5764 §4.1.2, RFC 7714 §14.2).
public enum SRTPProtectionProfile: UInt16, Sendable, CaseIterable, Hashable, CustomStringConvertible {
    /// SRTP_AES128_CM_HMAC_SHA1_80 (0x0001).
    case aes128CmSha1_80 = 0x0001
    /// SRTP_AES128_CM_HMAC_SHA1_32 (0x0002); SRTCP still uses an 80-bit tag (RFC 5764 §4.1.2).
    case aes128CmSha1_32 = 0x0002
    /// SRTP_AEAD_AES_128_GCM (0x0007), RFC 7714.
    case aeadAes128Gcm = 0x0007
    /// SRTP_AEAD_AES_256_GCM (0x0008), RFC 7714.
    case aeadAes256Gcm = 0x0008

    /// Preferred first: AEAD before CM/HMAC (GCM is 3–4× faster here, see C-LIBRARIES.md).
    public static let defaultPreference: [SRTPProtectionProfile] = [
        .aeadAes256Gcm, .aeadAes128Gcm, .aes128CmSha1_80, .aes128CmSha1_32,
    ]

    /// The name OpenSSL uses in `SSL_CTX_set_tlsext_use_srtp`.
    public var openSSLName: String {
        switch self {
        case .aes128CmSha1_80: "SRTP_AES128_CM_SHA1_80"
        case .aes128CmSha1_32: "SRTP_AES128_CM_SHA1_32"
        case .aeadAes128Gcm: "SRTP_AEAD_AES_128_GCM"
        case .aeadAes256Gcm: "SRTP_AEAD_AES_256_GCM"
        }
    }

    /// Master key length in bytes.
    public var keyLength: Int {
        switch self {
        case .aeadAes256Gcm: 32
        default: 16
        }
    }

    /// Master salt length in bytes (14 for AES-CM, 12 for AEAD, RFC 7714 §12).
    public var saltLength: Int {
        switch self {
        case .aes128CmSha1_80, .aes128CmSha1_32: 14
        case .aeadAes128Gcm, .aeadAes256Gcm: 12
        }
    }

    /// Bytes SRTP adds to a packet under this profile (no MKI): the authentication tag (RFC 3711
    /// §4.2, RFC 7714 §9.2 for the AEAD tag), plus for SRTCP the E flag and index word (RFC 3711
    /// §3.4). SRTCP always uses the 80-bit tag with AES-CM (RFC 5764 §4.1.2), as set in
    /// `SRTPSession`. Protecting in place needs exactly this much room after the packet.
    public func trailerLength(rtcp: Bool) -> Int {
        let tag: Int = switch self {
        case .aes128CmSha1_80: 10
        case .aes128CmSha1_32: rtcp ? 10 : 4
        case .aeadAes128Gcm, .aeadAes256Gcm: 16
        }
        return rtcp ? tag + 4 : tag
    }

    public var description: String { openSSLName }
}
