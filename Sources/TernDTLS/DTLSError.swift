/// Why a DTLS association or one of its operations failed.
public enum DTLSError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The peer's certificate matches none of the fingerprints from its SDP (RFC 8122 §5,
    /// RFC 8827 §6.5): the handshake is aborted and nothing is delivered.
    case fingerprintMismatch(expected: [DTLSFingerprint], actual: DTLSFingerprint)
    /// No remote fingerprint was configured; Tern refuses to authenticate nobody.
    case missingRemoteFingerprint
    /// The peer presented no certificate.
    case noPeerCertificate
    /// A fingerprint line names a hash function Tern does not compute.
    case unsupportedHashAlgorithm(String)
    /// A fingerprint line is not `<hash-func> <XX:XX:...>` (RFC 8122 §5).
    case malformedFingerprint(String)
    /// The peer sent a fatal alert (RFC 5246 §7.2).
    case fatalAlertReceived(DTLSAlert)
    /// The handshake gave up after OpenSSL's retransmission limit (RFC 6347 §4.2.4).
    case handshakeTimeout
    /// The handshake was still going when `DTLSConfiguration.handshakeTimeout` had passed.
    case handshakeDeadlineExceeded(milliseconds: Int64)
    /// OpenSSL rejected the handshake; `reason` is OpenSSL's error text.
    case handshakeFailed(reason: String)
    /// An operation needs a connected association.
    case notConnected
    /// The association is closed or failed.
    case closed
    /// Application data larger than one DTLS record may carry (RFC 6347 §4.1.1).
    case messageTooLarge(size: Int, limit: Int)
    /// A PEM block could not be read.
    case invalidPEM(reason: String)
    /// An OpenSSL call used to set up a context, key or certificate failed.
    case openSSL(operation: String, reason: String)

    public var description: String {
        switch self {
        case let .fingerprintMismatch(expected, actual):
            "peer certificate fingerprint \(actual.sdpValue) matches none of the SDP fingerprints "
                + "[\(expected.map(\.sdpValue).joined(separator: ", "))]: possible man-in-the-middle, handshake aborted"
        case .missingRemoteFingerprint:
            "no remote a=fingerprint configured: the peer cannot be authenticated"
        case .noPeerCertificate: "the peer presented no certificate"
        case let .unsupportedHashAlgorithm(name):
            "unsupported fingerprint hash \"\(name)\" (use sha-1, sha-224, sha-256, sha-384 or sha-512)"
        case let .malformedFingerprint(text): "malformed fingerprint \"\(text)\" (expected e.g. \"sha-256 AB:CD:...\")"
        case let .fatalAlertReceived(alert): "peer sent fatal alert \(alert.description)"
        case .handshakeTimeout: "DTLS handshake timed out after the maximum number of retransmissions"
        case let .handshakeDeadlineExceeded(limit): "DTLS handshake not complete after \(limit) ms (DTLSConfiguration.handshakeTimeout)"
        case let .handshakeFailed(reason): "DTLS handshake failed: \(reason)"
        case .notConnected: "the DTLS association is not connected yet"
        case .closed: "the DTLS association is closed"
        case let .messageTooLarge(size, limit): "application data of \(size) bytes exceeds the record limit of \(limit)"
        case let .invalidPEM(reason): "invalid PEM: \(reason)"
        case let .openSSL(operation, reason): "\(operation) failed: \(reason)"
        }
    }
}
