import TernCore
internal import COpenSSL

extension DTLSEndpoint {
    static let logger = TernLog.logger("dtls")

    /// An `SSL_CTX` for DTLS 1.2 only, with our cipher suites and use_srtp, and no certificate:
    /// each connection sets its own (`configureConnection`), so one context serves every
    /// endpoint offering the same SRTP profiles (`DTLSContextCache`). Building a context costs
    /// OpenSSL 3.0 about 0.3–0.5 ms of algorithm fetching, once per call set-up otherwise.
    static func makeContext(srtpProfiles: [SRTPProtectionProfile]) throws(DTLSError) -> OpaquePointer {
        guard let context = SSL_CTX_new(DTLS_method()) else {
            throw .openSSL(operation: "SSL_CTX_new", reason: OpenSSLErrorQueue.drain())
        }
        func check(_ ok: Bool, _ operation: String) throws(DTLSError) {
            if !ok {
                SSL_CTX_free(context)
                throw .openSSL(operation: operation, reason: OpenSSLErrorQueue.drain())
            }
        }
        let version = tern_DTLS1_2_VERSION()
        try check(tern_SSL_CTX_set_min_proto_version(context, version) == 1, "setting DTLS 1.2 minimum")
        try check(tern_SSL_CTX_set_max_proto_version(context, version) == 1, "setting DTLS 1.2 maximum")
        try check(SSL_CTX_set_cipher_list(context, DTLSConfiguration.cipherList) == 1, "SSL_CTX_set_cipher_list")
        try check(tern_SSL_CTX_set1_groups_list(context, "X25519:P-256:P-384") == 1, "SSL_CTX_set1_groups_list")
        if !srtpProfiles.isEmpty {
            let profiles = srtpProfiles.map(\.openSSLName).joined(separator: ":")
            // Returns 0 on success (unlike most of OpenSSL).
            try check(SSL_CTX_set_tlsext_use_srtp(context, profiles) == 0, "SSL_CTX_set_tlsext_use_srtp")
        }
        // Ask for (server) and require a peer certificate; the fingerprint check replaces chain checks.
        SSL_CTX_set_verify(context, tern_SSL_VERIFY_PEER() | tern_SSL_VERIFY_FAIL_IF_NO_PEER_CERT(), nil)
        SSL_CTX_set_cert_verify_callback(context, OpenSSLCallbacks.verifyCertificate, nil)
        // No renegotiation (RFC 5746 makes it safe, not cheap): a peer asking for one again and
        // again would buy a full ECDHE handshake each time, and a second certificate mid-call
        // has no place in WebRTC. OpenSSL answers a warning no_renegotiation alert and goes on.
        _ = SSL_CTX_set_options(context, tern_SSL_OP_NO_QUERY_MTU() | tern_SSL_OP_NO_TICKET() | tern_SSL_OP_NO_RENEGOTIATION())
        // A shared context must not remember sessions: a resumed handshake would skip the
        // certificate (and with it the fingerprint check), and the cache would grow with every call.
        _ = tern_SSL_CTX_disable_session_cache(context)
        return context
    }

    /// Certificate, BIOs, MTU, callbacks and role on the new `SSL`.
    func configureConnection() throws(DTLSError) {
        guard SSL_use_certificate(ssl, configuration.certificate.x509) == 1,
              SSL_use_PrivateKey(ssl, configuration.certificate.key) == 1,
              SSL_check_private_key(ssl) == 1
        else { throw .openSSL(operation: "setting the certificate and key", reason: OpenSSLErrorQueue.drain()) }
        guard SSL_set_ex_data(ssl, EndpointIO.exDataIndex, Unmanaged.passUnretained(io).toOpaque()) == 1,
              let readBIO = DatagramBIO.make(io: io)
        else { throw .openSSL(operation: "attaching the endpoint to SSL", reason: OpenSSLErrorQueue.drain()) }
        guard let writeBIO = DatagramBIO.make(io: io) else {
            BIO_free(readBIO)
            throw .openSSL(operation: "BIO_new", reason: OpenSSLErrorQueue.drain())
        }
        SSL_set_bio(ssl, readBIO, writeBIO)  // the SSL owns both from here
        let mtu = configuration.maximumDatagramSize
        // SSL_set_mtu returns the MTU it set, DTLS_set_link_mtu returns 1.
        guard tern_SSL_set_mtu(ssl, mtu) > 0, tern_DTLS_set_link_mtu(ssl, mtu) == 1 else {
            throw .openSSL(operation: "setting a DTLS MTU of \(mtu)", reason: OpenSSLErrorQueue.drain())
        }
        DTLS_set_timer_cb(ssl, OpenSSLCallbacks.timer)
        SSL_set_info_callback(ssl, OpenSSLCallbacks.info)
        if role == .client { SSL_set_connect_state(ssl) } else { SSL_set_accept_state(ssl) }
    }

    /// Runs `SSL_do_handshake` over whatever is in the inbox.
    func driveHandshake(now: Instant) {
        OpenSSLErrorQueue.clear()
        let result = SSL_do_handshake(ssl)
        if result == 1 {
            completeHandshake()
            if state == .connected { readApplicationData(now: now) }
        } else {
            let error = SSL_get_error(ssl, result)
            if error != SSL_ERROR_WANT_READ, error != SSL_ERROR_WANT_WRITE { fail(handshakeError()) }
        }
        updateTimer(now: now)
    }

    /// Verifies the peer again (fail closed), then reports what was negotiated.
    private func completeHandshake() {
        guard let peer = SSL_get1_peer_certificate(ssl) else {
            fail(.noPeerCertificate)
            return
        }
        let verified = io.verify(certificate: peer)
        X509_free(peer)
        let remote: DTLSFingerprint
        switch verified {
        case let .success(fingerprint): remote = fingerprint
        case let .failure(error):
            fail(error)
            return
        }
        let cipher = SSL_get_current_cipher(ssl).flatMap { SSL_CIPHER_get_name($0) }.map { String(cString: $0) }
        var keying: SRTPKeyingMaterial?
        var profile: SRTPProtectionProfile?
        if let selected = SSL_get_selected_srtp_profile(ssl),
           let negotiated = SRTPProtectionProfile(rawValue: UInt16(truncatingIfNeeded: selected.pointee.id)) {
            profile = negotiated
            keying = exportKeyingMaterial(profile: negotiated)
            if keying == nil { return }
        }
        let info = DTLSConnectionInfo(
            role: role, protocolVersion: "DTLSv1.2", cipherSuite: cipher ?? "unknown", srtpProfile: profile,
            localFingerprint: configuration.certificate.fingerprint(.sha256), remoteFingerprint: remote)
        connectionInfo = info
        state = .connected
        Self.logger.debug("DTLS connected: \(info)")
        io.events.append(.connected(info, keying))
    }

    /// RFC 5764 §4.2: `EXTRACTOR-dtls_srtp`, no context, 2 × (key + salt) bytes.
    private func exportKeyingMaterial(profile: SRTPProtectionProfile) -> SRTPKeyingMaterial? {
        var exported = [UInt8](repeating: 0, count: 2 * (profile.keyLength + profile.saltLength))
        defer { SecretBytes.wipe(&exported) }
        let label = SRTPKeyingMaterial.exporterLabel
        let ok = SSL_export_keying_material(ssl, &exported, exported.count, label, label.utf8.count, nil, 0, 0) == 1
        guard ok, let material = SRTPKeyingMaterial(profile: profile, exported: exported) else {
            fail(.openSSL(operation: "SSL_export_keying_material", reason: OpenSSLErrorQueue.drain()))
            return nil
        }
        return material
    }

    /// Reads every application record OpenSSL can decrypt from the inbox.
    func readApplicationData(now: Instant) {
        while state == .connected {
            OpenSSLErrorQueue.clear()
            let count = readBuffer.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32($0.count)) }
            if count > 0 {
                statistics.applicationRecordsReceived += 1
                io.events.append(.applicationData(Array(readBuffer[0..<Int(count)])))
                continue
            }
            switch SSL_get_error(ssl, count) {
            case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
                return
            case SSL_ERROR_ZERO_RETURN:
                // close_notify received: answer with ours (RFC 5246 §7.2.1) and stop.
                _ = SSL_shutdown(ssl)
                state = .closed
                io.events.append(.closed)
            default:
                fail(handshakeError())
            }
        }
    }

    /// The most specific error for a failed OpenSSL call.
    func handshakeError() -> DTLSError {
        if case let .failure(error)? = io.verification { return error }
        let reason = OpenSSLErrorQueue.drain(fallback: "unknown OpenSSL failure")
        if let alert = io.receivedFatalAlert { return .fatalAlertReceived(alert) }
        if reason.contains("read timeout expired") { return .handshakeTimeout }
        return .handshakeFailed(reason: reason)
    }

    /// Moves to `.failed` once and reports why.
    func fail(_ error: DTLSError) {
        guard state != .failed, state != .closed else { return }
        state = .failed
        Self.logger.debug("DTLS \(role.rawValue) failed: \(error)")
        io.events.append(.failed(error))
    }

    /// Re-reads OpenSSL's timer state after a call (see `DTLSTimer`).
    func updateTimer(now: Instant) {
        guard state == .connecting || state == .connected else {
            io.timer.update(now: now, remaining: nil)
            return
        }
        var left = timeval()
        let running = tern_DTLSv1_get_timeout(ssl, &left) == 1
        let remaining: Duration? = running ? .seconds(Int64(left.tv_sec)) + .microseconds(Int64(left.tv_usec)) : nil
        io.timer.update(now: now, remaining: remaining)
    }
}
