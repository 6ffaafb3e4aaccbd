import NIOSSL

/// How a `wss://` signaling connection checks the server: its certificate must chain to a
/// trusted root and name the URL's host (RFC 6125), over TLS 1.2 or later.
public struct SignalingClientTLS: Sendable, Hashable {
    /// PEM files of roots to trust instead of the system's (a private CA for your own server).
    public var trustedRootPaths: [String]

    /// Trusts the system's roots when `trustedRootPaths` is empty.
    public init(trustedRootPaths: [String] = []) {
        self.trustedRootPaths = trustedRootPaths
    }

    /// The system's roots.
    public static let system = SignalingClientTLS()

    /// The NIOSSL client configuration, or a reason a root file could not be used.
    func configuration() throws(SignalingTransportFailure) -> TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.minimumTLSVersion = .tlsv12
        configuration.certificateVerification = .fullVerification
        if !trustedRootPaths.isEmpty {
            var roots: [NIOSSLCertificate] = []
            for path in trustedRootPaths {
                do {
                    roots += try NIOSSLCertificate.fromPEMFile(path)
                } catch {
                    throw SignalingTransportFailure(reason: "cannot read the trusted root \(path): \(error)")
                }
            }
            guard !roots.isEmpty else { throw SignalingTransportFailure(reason: "no certificate in \(trustedRootPaths)") }
            configuration.trustRoots = .certificates(roots)
        }
        return configuration
    }
}

/// A TLS set-up problem, as text for `SignalingTransportError.failed`.
struct SignalingTransportFailure: Error {
    let reason: String
}
