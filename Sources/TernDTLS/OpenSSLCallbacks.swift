internal import COpenSSL

/// C callbacks installed on every endpoint's `SSL`/`SSL_CTX`. They capture nothing: the
/// endpoint's `EndpointIO` travels through `SSL_get_ex_data`.
enum OpenSSLCallbacks {
    /// `SSL_CTX_set_cert_verify_callback`: replaces chain building. WebRTC certificates are
    /// self-signed, so the only check is the SDP fingerprint (RFC 8827 §6.5); a mismatch
    /// rejects the certificate and OpenSSL aborts the handshake with bad_certificate.
    static let verifyCertificate: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Int32 = { store, _ in
        guard let store,
              let sslPointer = X509_STORE_CTX_get_ex_data(store, SSL_get_ex_data_X509_STORE_CTX_idx()),
              let io = EndpointIO.of(ssl: OpaquePointer(sslPointer))
        else { return 0 }
        guard let leaf = X509_STORE_CTX_get0_cert(store) else {
            io.verification = .failure(.noPeerCertificate)
            return 0
        }
        let result = io.verify(certificate: leaf)
        io.verification = result
        if case .failure = result {
            X509_STORE_CTX_set_error(store, X509_V_ERR_CERT_REJECTED)
            return 0
        }
        return 1
    }

    /// `DTLS_set_timer_cb`: see `DTLSTimer`.
    static let timer: @convention(c) (OpaquePointer?, UInt32) -> UInt32 = { ssl, previous in
        guard let io = EndpointIO.of(ssl: ssl) else { return 1_000_000 }
        return io.timer.openSSLDuration(previousMicroseconds: previous)
    }

    /// `SSL_set_info_callback`: surfaces every alert sent or received (RFC 5246 §7.2).
    static let info: @convention(c) (OpaquePointer?, Int32, Int32) -> Void = { ssl, type, value in
        guard type & SSL_CB_ALERT != 0, let io = EndpointIO.of(ssl: ssl) else { return }
        let name = SSL_alert_desc_string_long(value).map { String(cString: $0) } ?? "unknown"
        let alert = DTLSAlert(
            code: UInt8(truncatingIfNeeded: value & 0xFF),
            name: name,
            isFatal: (value >> 8) == 2,
            direction: type & SSL_CB_READ != 0 ? .received : .sent)
        if alert.isFatal, alert.direction == .received { io.receivedFatalAlert = alert }
        io.events.append(.alert(alert))
    }
}
