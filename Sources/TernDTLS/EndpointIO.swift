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

    /// Compares a certificate with the SDP fingerprints of the strongest hash the peer gave
    /// (RFC 8122 §5: "the set of fingerprints that use its most preferred hash function"), so
    /// a weaker one (say a SHA-1 fingerprint beside a SHA-256 one) cannot be the one that
    /// matches. Fails closed: no fingerprints, or none equal, is a mismatch.
    func verify(certificate x509: OpaquePointer) -> Result<DTLSFingerprint, DTLSError> {
        let strongest = remoteFingerprints.map(\.algorithm).max { $0.strength < $1.strength } ?? .sha256
        let candidates = remoteFingerprints.filter { $0.algorithm == strongest }
        let actual = DTLSCertificate.fingerprint(of: x509, algorithm: strongest)
        if !actual.digest.isEmpty, candidates.contains(actual) { return .success(actual) }
        return .failure(.fingerprintMismatch(expected: candidates, actual: actual))
    }

    /// The process-wide `SSL` ex_data slot holding the unretained `EndpointIO`.
    static let exDataIndex: Int32 = tern_SSL_get_ex_new_index()

    static func of(ssl: OpaquePointer?) -> EndpointIO? {
        guard let ssl, let data = SSL_get_ex_data(ssl, exDataIndex) else { return nil }
        return Unmanaged<EndpointIO>.fromOpaque(data).takeUnretainedValue()
    }
}
