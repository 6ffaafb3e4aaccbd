import NIOSSL

/// TLS for `SignalingServer` (`wss://`): a certificate chain and its private key, as PEM files.
/// With it the server speaks TLS 1.2 or 1.3 only, so tokens and descriptions (and with them the
/// DTLS fingerprints a call's security rests on, RFC 8827 §6.5) cannot be read or rewritten on
/// the path.
public struct SignalingServerTLS: Sendable, Hashable {
    /// PEM file with the server certificate first, then any intermediates.
    public var certificateChainPath: String
    /// PEM file with the certificate's private key.
    public var privateKeyPath: String

    public init(certificateChainPath: String, privateKeyPath: String) {
        self.certificateChainPath = certificateChainPath
        self.privateKeyPath = privateKeyPath
    }

    /// The NIOSSL server configuration, or a `SignalingServerError.tls` naming the file that
    /// could not be used.
    func configuration() throws(SignalingServerError) -> TLSConfiguration {
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(certificateChainPath)
        } catch {
            throw .tls(reason: "cannot read the certificate chain \(certificateChainPath): \(error)")
        }
        guard !chain.isEmpty else { throw .tls(reason: "no certificate in \(certificateChainPath)") }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(file: privateKeyPath, format: .pem)
        } catch {
            throw .tls(reason: "cannot read the private key \(privateKeyPath): \(error)")
        }
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        configuration.minimumTLSVersion = .tlsv12
        return configuration
    }
}
