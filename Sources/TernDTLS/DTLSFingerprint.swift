import TernCore

/// A certificate fingerprint as carried in SDP `a=fingerprint` (RFC 8122 §5):
/// `sha-256 AB:CD:...` — a hash function name and the uppercase hex digest.
public struct DTLSFingerprint: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The hash functions of RFC 8122's "Hash Function Textual Names" that Tern computes.
    public enum Algorithm: String, Sendable, CaseIterable, Hashable {
        case sha1 = "sha-1"
        case sha224 = "sha-224"
        case sha256 = "sha-256"
        case sha384 = "sha-384"
        case sha512 = "sha-512"

        /// Rank by strength (SHA-1 weakest, SHA-512 strongest).
        var strength: Int { Self.allCases.firstIndex(of: self) ?? 0 }

        /// Digest length in bytes.
        public var digestLength: Int {
            switch self {
            case .sha1: 20
            case .sha224: 28
            case .sha256: 32
            case .sha384: 48
            case .sha512: 64
            }
        }

        /// OpenSSL's digest name.
        var openSSLName: String {
            switch self {
            case .sha1: "SHA1"
            case .sha224: "SHA224"
            case .sha256: "SHA256"
            case .sha384: "SHA384"
            case .sha512: "SHA512"
            }
        }
    }

    /// The hash function.
    public var algorithm: Algorithm
    /// The digest of the DER certificate.
    public var digest: [UInt8]

    /// A fingerprint from its parts (no length check: `init(sdpValue:)` validates text input).
    public init(algorithm: Algorithm, digest: [UInt8]) {
        self.algorithm = algorithm
        self.digest = digest
    }

    /// Parses `"sha-256 AB:CD:..."` (the value of `a=fingerprint`). Hash names are
    /// case-insensitive (RFC 8122 §5); the digest length must match the hash.
    public init(sdpValue: String) throws(DTLSError) {
        let parts = sdpValue.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2 else { throw .malformedFingerprint(sdpValue) }
        guard let algorithm = Algorithm(rawValue: parts[0].lowercased()) else {
            throw .unsupportedHashAlgorithm(String(parts[0]))
        }
        let hex = parts[1]
        guard hex.split(separator: ":").allSatisfy({ $0.count == 2 }),
              let digest = Hex.decode(hex), digest.count == algorithm.digestLength
        else { throw .malformedFingerprint(sdpValue) }
        self.init(algorithm: algorithm, digest: digest)
    }

    /// The SDP form: `sha-256 AB:CD:...`.
    public var sdpValue: String {
        "\(algorithm.rawValue) \(Hex.encode(digest, separator: ":", uppercase: true))"
    }

    public var description: String { sdpValue }
}
