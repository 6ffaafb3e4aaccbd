internal import COpenSSL

/// The OpenSSL client context for one `turns:` server: TLS 1.2 or later, peer verification on
/// (system store and/or extra PEM anchors) unless `insecureSkipVerify`.
///
/// Immutable after init (OpenSSL contexts may be shared by sessions on one thread); used only on
/// the loop thread. Freed in `deinit`.
final class TurnTLSContext {
    let pointer: OpaquePointer
    /// The name checked against the certificate (the host from the `turns:` URL).
    let serverName: String
    let verify: Bool

    init(serverName: String, options: TurnTLSOptions) throws(ICEError) {
        guard let ctx = SSL_CTX_new(TLS_client_method()) else {
            throw .invalidConfiguration(reason: "turns: \(serverName): SSL_CTX_new failed: \(Self.openSSLError())")
        }
        pointer = ctx
        self.serverName = serverName
        verify = !options.insecureSkipVerify
        _ = tern_SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION)
        guard verify else {
            SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, nil)
            return
        }
        if options.useSystemTrustStore { _ = SSL_CTX_set_default_verify_paths(ctx) }
        for (index, pem) in options.trustedCertificatesPEM.enumerated() {
            let added = Self.addCertificates(pem, to: ctx)
            guard added > 0 else {
                throw .invalidConfiguration(reason: "turnTLS.trustedCertificatesPEM[\(index)] holds no PEM certificate")
            }
        }
        SSL_CTX_set_verify(ctx, tern_SSL_VERIFY_PEER(), nil)
    }

    deinit { SSL_CTX_free(pointer) }

    /// A client session for one connection, reading from `input` and writing to `output`
    /// (memory BIOs; the session owns them afterwards). Nil if OpenSSL refuses.
    func makeSession(input: OpaquePointer, output: OpaquePointer) -> OpaquePointer? {
        guard let ssl = SSL_new(pointer) else { return nil }
        SSL_set_connect_state(ssl)
        if AddressResolution.isIPLiteral(serverName) {
            // RFC 6066 §3: no SNI for IP literals; check subjectAltName iPAddress entries.
            if verify, X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), serverName) != 1 { SSL_free(ssl); return nil }
        } else {
            _ = serverName.withCString { SSL_ctrl(ssl, SSL_CTRL_SET_TLSEXT_HOSTNAME, Int(TLSEXT_NAMETYPE_host_name),
                                                  UnsafeMutableRawPointer(mutating: $0)) }
            if verify {
                SSL_set_hostflags(ssl, tern_X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS())
                guard SSL_set1_host(ssl, serverName) == 1 else { SSL_free(ssl); return nil }
            }
        }
        SSL_set_bio(ssl, input, output)
        return ssl
    }

    /// Adds every certificate in `pem` to the context's store; returns how many.
    private static func addCertificates(_ pem: String, to ctx: OpaquePointer) -> Int {
        let bytes = Array(pem.utf8)
        guard !bytes.isEmpty, let store = SSL_CTX_get_cert_store(ctx) else { return 0 }
        return bytes.withUnsafeBytes { raw -> Int in
            guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else { return 0 }
            defer { BIO_free(bio) }
            var count = 0
            while let certificate = PEM_read_bio_X509(bio, nil, nil, nil) {
                if X509_STORE_add_cert(store, certificate) == 1 { count += 1 }
                X509_free(certificate)
            }
            ERR_clear_error() // the loop ends with a "no start line" error on the queue
            return count
        }
    }

    /// The oldest error on this thread's OpenSSL queue as text (and clears the queue).
    static func openSSLError() -> String {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else { return "no OpenSSL error recorded" }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
