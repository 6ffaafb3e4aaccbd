/// How Tern checks `turns:` (TURN over TLS) servers.
///
/// libnice 0.1.21 does not speak TLS to TURN servers, so Tern runs a small TLS bridge per
/// `turns:` server on the transport's loop thread (OpenSSL, TLS 1.2 or later) and gives libnice
/// the bridge as a TURN/TCP server (Docs/ICE.md, "TURN over TLS"). The server's certificate
/// chain is verified against the trust anchors below, and its name against the host in the
/// `turns:` URL (DNS name: subjectAltName DNS entries and SNI; IP literal: subjectAltName IP
/// entries, no SNI). A server that fails either check gives no relay candidate; the trace says
/// why (`ICETrace.Event.turnTLSFailed`).
public struct TurnTLSOptions: Sendable, Hashable {
    /// Trust the system CA store (OpenSSL's default paths, e.g. `/etc/ssl/certs`). Default true.
    public var useSystemTrustStore: Bool = true
    /// Extra trust anchors, each one or more PEM certificates (e.g. a private CA that signed the
    /// TURN server's certificate), trusted besides (or, with `useSystemTrustStore` off, instead
    /// of) the system store.
    public var trustedCertificatesPEM: [String] = []
    /// Skips certificate and host name verification. The TURN control traffic is still
    /// encrypted, but anyone on the path can impersonate the server and read it: for tests
    /// and lab set-ups only. Each such server is marked in the trace.
    public var insecureSkipVerify: Bool = false

    /// System trust store, no extra anchors, verification on.
    public init() {}
}
