internal import COpenSSL

/// The state OpenSSL's callbacks reach through `BIO_get_data`/`SSL_get_ex_data`.
///
/// Owned by one `DTLSEndpoint` and touched only inside its calls (same thread), so it needs no lock.
final class EndpointIO {
    /// The datagram being handed to OpenSSL (at most one at a time).
    var inbox: [[UInt8]] = []
    /// Datagrams OpenSSL wrote, oldest first.
    var outbox: [[UInt8]] = []
    /// Events produced by callbacks, oldest first.
    var events: [DTLSEvent] = []
    /// The retransmission timer.
    let timer: DTLSTimer
    /// What the peer's certificate must match.
    let remoteFingerprints: [DTLSFingerprint]
    /// The outcome of the certificate check, once the peer's Certificate arrived.
    var verification: Result<DTLSFingerprint, DTLSError>?
    /// The last fatal alert received.
    var receivedFatalAlert: DTLSAlert?

    init(timer: DTLSTimer, remoteFingerprints: [DTLSFingerprint]) {
        self.timer = timer
        self.remoteFingerprints = remoteFingerprints
    }

    func popInbound() -> [UInt8]? { inbox.isEmpty ? nil : inbox.removeFirst() }

    /// Compares a certificate with every SDP fingerprint, each in its own hash (RFC 8122 §5).
    /// Fails closed: no fingerprints, or none equal, is a mismatch.
    func verify(certificate x509: OpaquePointer) -> Result<DTLSFingerprint, DTLSError> {
        for expected in remoteFingerprints {
            let actual = DTLSCertificate.fingerprint(of: x509, algorithm: expected.algorithm)
            if !actual.digest.isEmpty, actual == expected { return .success(actual) }
        }
        let algorithm = remoteFingerprints.first?.algorithm ?? .sha256
        let actual = DTLSCertificate.fingerprint(of: x509, algorithm: algorithm)
        return .failure(.fingerprintMismatch(expected: remoteFingerprints, actual: actual))
    }

    /// The process-wide `SSL` ex_data slot holding the unretained `EndpointIO`.
    static let exDataIndex: Int32 = tern_SSL_get_ex_new_index()

    static func of(ssl: OpaquePointer?) -> EndpointIO? {
        guard let ssl, let data = SSL_get_ex_data(ssl, exDataIndex) else { return nil }
        return Unmanaged<EndpointIO>.fromOpaque(data).takeUnretainedValue()
    }
}
