import Testing
import TernCore
@testable import TernDTLS

@Suite struct DTLSHandshakeTests {
    @Test func handshakeCompletesAndBothSidesExportTheSameKeys() throws {
        let harness = try DTLSTestHarness.make()
        #expect(harness.handshake())
        let clientInfo = try #require(harness.client.connectionInfo)
        let serverInfo = try #require(harness.server.connectionInfo)
        #expect(clientInfo.role == .client)
        #expect(serverInfo.role == .server)
        #expect(clientInfo.cipherSuite == serverInfo.cipherSuite)
        #expect(clientInfo.cipherSuite.hasPrefix("ECDHE-ECDSA-"))
        #expect(clientInfo.srtpProfile == .aeadAes256Gcm)
        #expect(clientInfo.remoteFingerprint == serverInfo.localFingerprint)
        #expect(serverInfo.remoteFingerprint == clientInfo.localFingerprint)
        let clientKeys = try #require(harness.clientKeying)
        #expect(clientKeys == harness.serverKeying)
        #expect(clientKeys.clientWriteKey != clientKeys.serverWriteKey)
        #expect(harness.client.nextTimeout == nil)
        #expect(harness.server.nextTimeout == nil)
        // Four flights, each one 1200-byte-bounded datagram (records of a flight share a datagram).
        #expect(harness.clientSent.count == 2 && harness.serverSent.count == 2)
        #expect((harness.clientSent + harness.serverSent).allSatisfy { $0.count <= 1200 })
    }

    @Test(arguments: [DTLSRole.client, .server])
    func eitherSideCanBeTheClient(firstRole: DTLSRole) throws {
        // The harness's `client` endpoint is whichever certificate owner plays client.
        let a = try Certificates.shared(.ecdsaP256)
        let b = try DTLSCertificate.generate(.ecdsaP256)
        let (clientCert, serverCert) = firstRole == .client ? (a, b) : (b, a)
        let client = try DTLSEndpoint(configuration: .virtualTime(role: .client, certificate: clientCert,
                                                           remoteFingerprints: [serverCert.fingerprint()]))
        let server = try DTLSEndpoint(configuration: .virtualTime(role: .server, certificate: serverCert,
                                                           remoteFingerprints: [clientCert.fingerprint()]))
        let harness = DTLSTestHarness(client: client, server: server)
        #expect(harness.handshake())
        #expect(harness.client.connectionInfo?.localFingerprint == clientCert.fingerprint())
    }

    @Test(arguments: SRTPProtectionProfile.allCases)
    func exportedKeysProtectSRTPInBothDirections(profile: SRTPProtectionProfile) throws {
        let harness = try DTLSTestHarness.make(profiles: [profile])
        #expect(harness.handshake())
        #expect(harness.client.connectionInfo?.srtpProfile == profile)
        let clientKeys = try #require(harness.clientKeying)
        let serverKeys = try #require(harness.serverKeying)
        let clientOut = try SRTPSession(keying: clientKeys, role: .client, direction: .outbound)
        let clientIn = try SRTPSession(keying: clientKeys, role: .client, direction: .inbound)
        let serverOut = try SRTPSession(keying: serverKeys, role: .server, direction: .outbound)
        let serverIn = try SRTPSession(keying: serverKeys, role: .server, direction: .inbound)
        for sequence: UInt16 in 1...20 {
            let plain = RTPPacket.make(sequence: sequence, payload: Array(repeating: UInt8(sequence), count: 100))
            var packet = plain
            #expect(clientOut.protectRTP(&packet) == .ok)
            #expect(serverIn.unprotectRTP(&packet) == .ok)
            #expect(packet == plain)
            var back = plain
            #expect(serverOut.protectRTP(&back) == .ok)
            #expect(clientIn.unprotectRTP(&back) == .ok)
            #expect(back == plain)
        }
        let report = RTPPacket.receiverReport(ssrc: 0xCAFE)
        var rtcp = report
        #expect(serverOut.protectRTCP(&rtcp) == .ok)
        #expect(clientIn.unprotectRTCP(&rtcp) == .ok)
        #expect(rtcp == report)
        // The client's own inbound session cannot read what the client sent: the directions differ.
        var own = RTPPacket.make(sequence: 100, payload: [1, 2, 3])
        #expect(clientOut.protectRTP(&own) == .ok)
        #expect(clientIn.unprotectRTP(&own) == .authenticationFailed)
    }

    @Test func onlyTheStrongestHashGivenCounts() throws {
        // RFC 8122 §5: with SHA-1 and SHA-256 fingerprints in the description, the certificate
        // must match a SHA-256 one; a matching SHA-1 fingerprint beside a wrong SHA-256 one fails.
        let clientCert = try Certificates.shared(.ecdsaP256)
        let serverCert = try DTLSCertificate.generate(.ecdsaP256)
        let wrong = DTLSFingerprint(algorithm: .sha256, digest: [UInt8](repeating: 0xAB, count: 32))
        func handshake(trusting fingerprints: [DTLSFingerprint]) throws -> DTLSTestHarness {
            let client = try DTLSEndpoint(configuration: .virtualTime(role: .client, certificate: clientCert, remoteFingerprints: fingerprints))
            let server = try DTLSEndpoint(configuration: .virtualTime(role: .server, certificate: serverCert,
                                                               remoteFingerprints: [clientCert.fingerprint()]))
            let harness = DTLSTestHarness(client: client, server: server)
            harness.handshake()
            return harness
        }
        let weakMatch = try handshake(trusting: [serverCert.fingerprint(.sha1), wrong])
        #expect(weakMatch.client.state == .failed)
        #expect(DTLSTestHarness.failure(in: weakMatch.clientEvents)
            == .fingerprintMismatch(expected: [wrong], actual: serverCert.fingerprint(.sha256)))
        let strongMatch = try handshake(trusting: [DTLSFingerprint(algorithm: .sha1, digest: [UInt8](repeating: 1, count: 20)),
                                                   serverCert.fingerprint(.sha256)])
        #expect(strongMatch.client.state == .connected, "a wrong weaker fingerprint does not matter")
    }

    @Test func serverPreferenceOrderPicksTheSRTPProfile() throws {
        // RFC 5764 §4.1.1: the server selects one profile the client offered; OpenSSL uses the server's order.
        let clientCert = try Certificates.shared(.ecdsaP256)
        let serverCert = try DTLSCertificate.generate(.ecdsaP256)
        let client = try DTLSEndpoint(configuration: .virtualTime(
            role: .client, certificate: clientCert, remoteFingerprints: [serverCert.fingerprint()],
            srtpProfiles: [.aes128CmSha1_80, .aeadAes128Gcm]))
        let server = try DTLSEndpoint(configuration: .virtualTime(
            role: .server, certificate: serverCert, remoteFingerprints: [clientCert.fingerprint()],
            srtpProfiles: [.aeadAes128Gcm, .aes128CmSha1_80]))
        let harness = DTLSTestHarness(client: client, server: server)
        #expect(harness.handshake())
        #expect(harness.client.connectionInfo?.srtpProfile == .aeadAes128Gcm)
        #expect(harness.clientKeying?.clientWriteSalt.count == 12)
    }

    @Test func withoutUseSRTPTheAssociationCarriesDataOnly() throws {
        let harness = try DTLSTestHarness.make(profiles: [])
        #expect(harness.handshake())
        #expect(harness.client.connectionInfo?.srtpProfile == nil)
        #expect(harness.clientEvents.contains { if case .connected(_, nil) = $0 { true } else { false } })
    }

    @Test func applicationDataCrossesInBothDirections() throws {
        let harness = try DTLSTestHarness.make()
        #expect(harness.handshake())
        try harness.client.send(applicationData: Array("hello from client".utf8))
        try harness.server.send(applicationData: Array(repeating: 7, count: 1000))
        harness.run { !DTLSTestHarness.applicationData(in: $0.serverEvents).isEmpty
            && !DTLSTestHarness.applicationData(in: $0.clientEvents).isEmpty }
        #expect(DTLSTestHarness.applicationData(in: harness.serverEvents) == [Array("hello from client".utf8)])
        #expect(DTLSTestHarness.applicationData(in: harness.clientEvents) == [Array(repeating: 7, count: 1000)])
        #expect(harness.server.statistics.applicationRecordsReceived == 1)

        // A record of exactly the advertised size fits one datagram of the 1200-byte MTU.
        let fitting = try #require(harness.client.maximumApplicationDataSize)
        #expect(fitting > 1100 && fitting < 1200)
        let before = harness.clientSent.count
        try harness.client.send(applicationData: Array(repeating: 1, count: fitting))
        harness.flush()
        #expect(harness.clientSent.count == before + 1)
        #expect(harness.clientSent.last?.count ?? 0 <= 1200)
    }

    @Test func aRecordLargerThanTheMTUTravelsWholeInOneDatagram() throws {
        // SCTP's path MTU discovery sends packets of up to 16 KiB: each must stay one record in
        // one datagram, or the receiver would see pieces of an SCTP packet.
        let harness = try DTLSTestHarness.make()
        #expect(harness.handshake())
        let big = (0..<16_384).map { UInt8(truncatingIfNeeded: $0) }
        let before = harness.clientSent.count
        try harness.client.send(applicationData: big)
        harness.flush()
        #expect(harness.clientSent.count == before + 1)
        harness.run { !DTLSTestHarness.applicationData(in: $0.serverEvents).isEmpty }
        #expect(DTLSTestHarness.applicationData(in: harness.serverEvents) == [big])
    }

    @Test func sendBeforeConnectedIsATypedError() throws {
        let harness = try DTLSTestHarness.make()
        #expect(throws: DTLSError.notConnected) { try harness.client.send(applicationData: [1]) }
        #expect(throws: DTLSError.missingRemoteFingerprint) {
            try DTLSEndpoint(configuration: .virtualTime(role: .client, certificate: try Certificates.shared(.ecdsaP256),
                                                  remoteFingerprints: []))
        }
    }

    @Test func closeNotifyIsSentAndHonoured() throws {
        let harness = try DTLSTestHarness.make()
        #expect(harness.handshake())
        harness.client.close(now: harness.now)
        #expect(harness.client.state == .closed)
        harness.run { $0.server.state == .closed }
        #expect(harness.server.state == .closed)
        #expect(harness.serverEvents.contains(.closed))
        let received = harness.serverEvents.compactMap { if case let .alert(a) = $0 { a } else { nil } }
        #expect(received.contains { $0.isCloseNotify && $0.direction == .received && $0.name == "close notify" })
        #expect(throws: DTLSError.closed) { try harness.server.send(applicationData: [1]) }
    }

    @Test func rsa2048ServerCertificateWorksWithAnECDSAClient() throws {
        let harness = try DTLSTestHarness.make(clientKey: .ecdsaP256, serverKey: .rsa(bits: 2048))
        #expect(harness.handshake())
        #expect(harness.client.connectionInfo?.cipherSuite.hasPrefix("ECDHE-RSA-") == true)
        #expect(harness.clientKeying == harness.serverKeying)
    }
}
