internal import COpenSSL

/// A private key and its self-signed X.509 certificate, as WebRTC uses them (RFC 8827 §6.5):
/// identity comes from the SDP fingerprint, not from a CA.
///
/// Thread-safety: the key and certificate are never modified after `init`, and OpenSSL's
/// reference-counted `X509`/`EVP_PKEY` are safe to read from several threads, so the class
/// is `@unchecked Sendable` with nothing mutable to protect.
public final class DTLSCertificate: @unchecked Sendable {
    /// The key type of a certificate to generate.
    public enum KeyType: Sendable, Hashable {
        /// ECDSA on P-256 (fast: a few milliseconds); what browsers generate.
        case ecdsaP256
        /// RSA with a modulus of `bits` bits (GStreamer's webrtcbin presents RSA-2048).
        case rsa(bits: Int)
    }

    let key: OpaquePointer  // EVP_PKEY *
    let x509: OpaquePointer  // X509 *

    private init(key: OpaquePointer, x509: OpaquePointer) {
        self.key = key
        self.x509 = x509
    }

    deinit {
        X509_free(x509)
        EVP_PKEY_free(key)
    }

    /// Generates a key and a self-signed certificate valid from a day ago for `validityDays`.
    public static func generate(
        _ keyType: KeyType = .ecdsaP256, commonName: String = "tern", validityDays: Int = 30
    ) throws(DTLSError) -> DTLSCertificate {
        let key: OpaquePointer? = switch keyType {
        case .ecdsaP256: tern_EVP_EC_gen_p256()
        case let .rsa(bits): tern_EVP_RSA_gen(UInt32(clamping: bits))
        }
        guard let key else { throw .openSSL(operation: "key generation", reason: OpenSSLErrorQueue.drain()) }
        guard let x509 = X509_new() else {
            EVP_PKEY_free(key)
            throw .openSSL(operation: "X509_new", reason: OpenSSLErrorQueue.drain())
        }
        let certificate = DTLSCertificate(key: key, x509: x509)
        try certificate.fillSelfSigned(commonName: commonName, validityDays: validityDays)
        return certificate
    }

    private func fillSelfSigned(commonName: String, validityDays: Int) throws(DTLSError) {
        var serial: UInt64 = 0
        withUnsafeMutableBytes(of: &serial) { _ = RAND_bytes($0.baseAddress?.assumingMemoryBound(to: UInt8.self), 8) }
        let name = X509_get_subject_name(x509)
        // An explicit length: with -1 OpenSSL would strlen() a Swift array that has no NUL.
        let commonNameBytes = Array(commonName.utf8)
        let ok = X509_set_version(x509, 2) == 1
            && ASN1_INTEGER_set_uint64(X509_get_serialNumber(x509), serial >> 1) == 1
            && X509_gmtime_adj(X509_getm_notBefore(x509), -86_400) != nil
            && X509_gmtime_adj(X509_getm_notAfter(x509), 86_400 * validityDays) != nil
            && X509_set_pubkey(x509, key) == 1
            && X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, commonNameBytes, Int32(commonNameBytes.count), -1, 0) == 1
            && X509_set_issuer_name(x509, name) == 1
            && X509_sign(x509, key, EVP_sha256()) > 0
        guard ok else { throw .openSSL(operation: "self-signing a certificate", reason: OpenSSLErrorQueue.drain()) }
    }

    /// Loads a certificate and its private key from PEM (e.g. a persisted identity).
    public convenience init(certificatePEM: String, privateKeyPEM: String) throws(DTLSError) {
        guard let x509 = Self.withMemoryBIO(certificatePEM, { PEM_read_bio_X509($0, nil, nil, nil) }) else {
            throw .invalidPEM(reason: "certificate: \(OpenSSLErrorQueue.drain())")
        }
        guard let key = Self.withMemoryBIO(privateKeyPEM, { PEM_read_bio_PrivateKey($0, nil, nil, nil) }) else {
            X509_free(x509)
            throw .invalidPEM(reason: "private key: \(OpenSSLErrorQueue.drain())")
        }
        guard X509_check_private_key(x509, key) == 1 else {
            X509_free(x509)
            EVP_PKEY_free(key)
            throw .invalidPEM(reason: "the private key does not match the certificate")
        }
        self.init(key: key, x509: x509)
    }

    /// The certificate in PEM.
    public var certificatePEM: String { Self.pem { PEM_write_bio_X509($0, x509) } }

    /// The unencrypted PKCS#8 private key in PEM. Store it as a secret.
    public var privateKeyPEM: String { Self.pem { PEM_write_bio_PrivateKey($0, key, nil, nil, 0, nil, nil) } }

    /// The fingerprint of this certificate for SDP `a=fingerprint`.
    public func fingerprint(_ algorithm: DTLSFingerprint.Algorithm = .sha256) -> DTLSFingerprint {
        Self.fingerprint(of: x509, algorithm: algorithm)
    }

    /// The key type's textual name, for traces ("EC", "RSA").
    public var keyTypeName: String {
        guard let name = EVP_PKEY_get0_type_name(key) else { return "unknown" }
        return String(cString: name)
    }

    /// The digest of a DER certificate (`X509_digest`).
    static func fingerprint(of x509: OpaquePointer, algorithm: DTLSFingerprint.Algorithm) -> DTLSFingerprint {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        // EVP_get_digestbyname never fails for these five built-in names.
        let md = EVP_get_digestbyname(algorithm.openSSLName)
        if X509_digest(x509, md, &digest, &length) != 1 { length = 0 }
        return DTLSFingerprint(algorithm: algorithm, digest: Array(digest.prefix(Int(length))))
    }

    private static func withMemoryBIO<T>(_ text: String, _ body: (OpaquePointer) -> T?) -> T? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { raw -> T? in
            guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else { return nil }
            defer { BIO_free(bio) }
            return body(bio)
        }
    }

    private static func pem(_ write: (OpaquePointer) -> Int32) -> String {
        guard let bio = BIO_new(BIO_s_mem()) else { return "" }
        defer { BIO_free(bio) }
        guard write(bio) == 1 else { return "" }
        var data: UnsafeMutablePointer<CChar>?
        let length = tern_BIO_get_mem_data(bio, &data)
        guard let data, length > 0 else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
    }
}
