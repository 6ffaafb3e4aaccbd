import Testing
@testable import TernDTLS

/// Endpoints share one `SSL_CTX` per SRTP profile list (`DTLSContextCache`); the certificate is
/// per connection. Sharing must not let one connection's identity or session leak into another.
@Suite("Shared DTLS context")
struct DTLSContextCacheTests {
    private static func pair(client: DTLSCertificate, server: DTLSCertificate,
                             serverExpects: DTLSCertificate? = nil) throws -> DTLSTestHarness {
        let clientEndpoint = try DTLSEndpoint(configuration: .virtualTime(
            role: .client, certificate: client, remoteFingerprints: [server.fingerprint()]))
        let serverEndpoint = try DTLSEndpoint(configuration: .virtualTime(
            role: .server, certificate: server, remoteFingerprints: [(serverExpects ?? client).fingerprint()]))
        return DTLSTestHarness(client: clientEndpoint, server: serverEndpoint)
    }

    @Test func endpointsWithTheSameProfilesShareOneContextAndEachPresentsItsOwnCertificate() throws {
        let certificates = try (0..<4).map { _ in try DTLSCertificate.generate(.ecdsaP256) }
        let first = try Self.pair(client: certificates[0], server: certificates[1])
        let second = try Self.pair(client: certificates[2], server: certificates[3])
        #expect(first.client.context == second.server.context, "one SSL_CTX for the same profile list")
        #expect(first.handshake() && second.handshake())
        #expect(first.client.connectionInfo?.remoteFingerprint == certificates[1].fingerprint())
        #expect(first.server.connectionInfo?.remoteFingerprint == certificates[0].fingerprint())
        #expect(second.client.connectionInfo?.remoteFingerprint == certificates[3].fingerprint())
        #expect(second.server.connectionInfo?.remoteFingerprint == certificates[2].fingerprint())
        #expect(first.client.connectionInfo?.localFingerprint == certificates[0].fingerprint())
        #expect(second.server.connectionInfo?.localFingerprint == certificates[3].fingerprint())
    }

    @Test func aDifferentProfileListGetsItsOwnContext() throws {
        let a = try DTLSEndpoint(configuration: .virtualTime(role: .client, certificate: try Certificates.shared(.ecdsaP256),
                                                      remoteFingerprints: [try Certificates.shared(.ecdsaP256).fingerprint()],
                                                      srtpProfiles: [.aeadAes128Gcm]))
        let b = try DTLSEndpoint(configuration: .virtualTime(role: .client, certificate: try Certificates.shared(.ecdsaP256),
                                                      remoteFingerprints: [try Certificates.shared(.ecdsaP256).fingerprint()],
                                                      srtpProfiles: []))
        #expect(a.context != b.context)
    }

    @Test func afterAHandshakeOnTheSharedContextAWrongFingerprintStillFails() throws {
        // The same client certificate again, against a server that expects another one: with a
        // session cache the second handshake could resume and skip the certificate; it must not.
        let client = try DTLSCertificate.generate(.ecdsaP256)
        let server = try DTLSCertificate.generate(.ecdsaP256)
        let someoneElse = try DTLSCertificate.generate(.ecdsaP256)
        let honest = try Self.pair(client: client, server: server)
        #expect(honest.handshake())
        let mismatched = try Self.pair(client: client, server: server, serverExpects: someoneElse)
        #expect(!mismatched.handshake())
        #expect(DTLSTestHarness.failure(in: mismatched.serverEvents)
            == .fingerprintMismatch(expected: [someoneElse.fingerprint()], actual: client.fingerprint()))
    }
}
