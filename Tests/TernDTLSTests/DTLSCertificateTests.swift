import Testing
import TernCore
@testable import TernDTLS

@Suite struct DTLSCertificateTests {
    @Test func generatedECDSACertificateHasSHA256FingerprintInSDPForm() throws {
        let certificate = try DTLSCertificate.generate(.ecdsaP256)
        let fingerprint = certificate.fingerprint()
        #expect(certificate.keyTypeName == "EC")
        #expect(fingerprint.algorithm == .sha256)
        #expect(fingerprint.digest.count == 32)
        let value = fingerprint.sdpValue
        #expect(value.hasPrefix("sha-256 "))
        let hex = value.dropFirst("sha-256 ".count)
        #expect(hex.split(separator: ":").count == 32)
        #expect(hex == hex.uppercased())
        #expect(try DTLSFingerprint(sdpValue: value) == fingerprint)
    }

    @Test(arguments: DTLSFingerprint.Algorithm.allCases)
    func fingerprintComputesEveryHashOfRFC8122(algorithm: DTLSFingerprint.Algorithm) throws {
        let certificate = try Certificates.shared(.ecdsaP256)
        let fingerprint = certificate.fingerprint(algorithm)
        #expect(fingerprint.digest.count == algorithm.digestLength)
        #expect(try DTLSFingerprint(sdpValue: fingerprint.sdpValue) == fingerprint)
    }

    @Test func pemRoundTripKeepsTheIdentity() throws {
        let original = try Certificates.shared(.ecdsaP256)
        let reloaded = try DTLSCertificate(certificatePEM: original.certificatePEM, privateKeyPEM: original.privateKeyPEM)
        #expect(original.certificatePEM.hasPrefix("-----BEGIN CERTIFICATE-----"))
        #expect(original.privateKeyPEM.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        #expect(reloaded.fingerprint(.sha256) == original.fingerprint(.sha256))
        #expect(reloaded.fingerprint(.sha512) == original.fingerprint(.sha512))
    }

    @Test func pemWithAForeignKeyIsRejected() throws {
        let one = try Certificates.shared(.ecdsaP256)
        let other = try DTLSCertificate.generate(.ecdsaP256)
        #expect(throws: DTLSError.self) {
            try DTLSCertificate(certificatePEM: one.certificatePEM, privateKeyPEM: other.privateKeyPEM)
        }
        #expect(throws: DTLSError.self) {
            try DTLSCertificate(certificatePEM: "not pem", privateKeyPEM: one.privateKeyPEM)
        }
    }

    @Test func rsa2048CertificateCanBeGenerated() throws {
        let certificate = try Certificates.shared(.rsa(bits: 2048))
        #expect(certificate.keyTypeName == "RSA")
        #expect(certificate.fingerprint().digest.count == 32)
    }

    @Test func fingerprintParsingRejectsBadInput() {
        #expect(throws: DTLSError.unsupportedHashAlgorithm("md5")) { try DTLSFingerprint(sdpValue: "md5 AB:CD") }
        #expect(throws: DTLSError.malformedFingerprint("sha-256 AB:CD")) { try DTLSFingerprint(sdpValue: "sha-256 AB:CD") }
        #expect(throws: DTLSError.malformedFingerprint("sha-256")) { try DTLSFingerprint(sdpValue: "sha-256") }
        let upper = "SHA-1 " + Array(repeating: "0A", count: 20).joined(separator: ":")
        #expect((try? DTLSFingerprint(sdpValue: upper))?.algorithm == .sha1)
    }
}
