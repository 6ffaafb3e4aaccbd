import Foundation
import Testing
import TernCore
@testable import TernDTLS
import TernTestSupport

/// Loss, man-in-the-middle and garbage: what the network may do to a handshake.
@Suite struct DTLSAdverseTests {
    /// Loss tests need retransmissions driven by `now` (OpenSSL 3.0.x, what Debian 12 ships);
    /// elsewhere OpenSSL's wall-clock timer rules and virtual time cannot trigger them.
    static let virtualTimeRetransmits = DTLSEndpoint.callerClockRetransmissionAvailable

    @Test func retransmissionFollowsTheCallerClockOnOpenSSL30() {
        let isOpenSSL30 = (0x3000_0000..<0x3010_0000).contains(DTLSTimer.openSSLVersionNumber)
        #expect(DTLSEndpoint.callerClockRetransmissionAvailable == isOpenSSL30)
    }

    @Test(.enabled(if: virtualTimeRetransmits), arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func handshakeCompletesOverALossyReorderingDuplicatingLink(seed: UInt64) throws {
        let conditions = SimulatedLink.Conditions(
            lossRate: 0.3, duplicateRate: 0.1, delay: .milliseconds(20), jitter: .milliseconds(40))
        let harness = try DTLSTestHarness.make(conditions: conditions, seed: seed)
        #expect(harness.handshake(limit: .seconds(300)))
        #expect(harness.clientKeying != nil)
        #expect(harness.clientKeying == harness.serverKeying)
        // Data still crosses afterwards (the link keeps dropping, so send until one arrives).
        var attempts = 0
        while DTLSTestHarness.applicationData(in: harness.serverEvents).isEmpty, attempts < 20 {
            attempts += 1
            try harness.client.send(applicationData: [UInt8(attempts)])
            harness.run(limit: .milliseconds(200)) { !DTLSTestHarness.applicationData(in: $0.serverEvents).isEmpty }
        }
        #expect(!DTLSTestHarness.applicationData(in: harness.serverEvents).isEmpty)
    }

    @Test(.enabled(if: virtualTimeRetransmits)) func lossyHandshakeIsDeterministicForASeed() throws {
        let conditions = SimulatedLink.Conditions(lossRate: 0.3, duplicateRate: 0.1, delay: .milliseconds(20),
                                                  jitter: .milliseconds(40))
        func runOnce() throws -> (Instant, Int, Int) {
            let harness = try DTLSTestHarness.make(conditions: conditions, seed: 42)
            #expect(harness.handshake(limit: .seconds(300)))
            return (harness.now, harness.clientSent.count, harness.serverSent.count)
        }
        let first = try runOnce()
        let second = try runOnce()
        #expect(first == second)
    }

    @Test(.enabled(if: virtualTimeRetransmits)) func lostFlightsAreRetransmittedWithDoublingTimeouts() throws {
        // Drop everything: the client resends its ClientHello 100 ms, 200 ms, 400 ms, ... after the
        // previous copy (RFC 9147 §5.8.2's initial 100 ms, doubling; RFC 6347 §4.2.4.1).
        let harness = try DTLSTestHarness.make(conditions: .init(lossRate: 1.0))
        harness.client.start(now: harness.now)
        var sendTimes: [Instant] = []
        harness.run(limit: .seconds(20)) { harness in
            while sendTimes.count < harness.clientSent.count { sendTimes.append(harness.now) }
            return false
        }
        #expect(sendTimes.map(\.nanoseconds) == [0, 1, 3, 7, 15, 31, 63, 127].map { Int64($0) * 100_000_000 })
        #expect(harness.client.statistics.retransmissionTimeouts == 7)
        #expect(harness.client.state == .connecting)
    }

    @Test(.enabled(if: virtualTimeRetransmits)) func handshakeFailsAtItsDeadline() throws {
        // Nothing arrives: OpenSSL would go on retransmitting for minutes (12 doubling timeouts);
        // the handshake deadline ends it at 30 s.
        let harness = try DTLSTestHarness.make(conditions: .init(lossRate: 1.0))
        harness.client.start(now: harness.now)
        #expect(harness.client.nextTimeout == harness.now + .milliseconds(100), "the first retransmission comes first")
        harness.run(limit: .seconds(120)) { $0.client.state == .failed }
        #expect(DTLSTestHarness.failure(in: harness.clientEvents) == .handshakeDeadlineExceeded(milliseconds: 30_000))
        #expect(harness.now >= .zero + .seconds(30) && harness.now < .zero + .seconds(31), "at \(harness.now)")
    }

    @Test func productionRetransmitsOnTheSystemClockWithoutTouchingOpenSSLState() async throws {
        let clientCertificate = try Certificates.shared(.ecdsaP256), serverCertificate = try Certificates.shared(.ecdsaP256)
        var configuration = DTLSConfiguration(role: .client, certificate: clientCertificate,
                                              remoteFingerprints: [serverCertificate.fingerprint()])
        // Not about the deadline: a full parallel run on 2 cores starved this task past the 30 s
        // default, and the ended handshake had no timer left to wait for.
        configuration.handshakeTimeout = .seconds(600)
        let client = try DTLSEndpoint(configuration: configuration)
        #expect(!client.retransmissionFollowsCallerClock)
        let clock = SystemClock()
        client.start(now: clock.now())
        #expect(client.pollTransmit() != nil, "the ClientHello (lost)")
        // Wait for `nextTimeout` and act on it, as the transport driver does. `now` was read
        // before OpenSSL started its own timer, so a handleTimeout can come a little early (by
        // the time the ClientHello took to build: tens of ms under ThreadSanitizer); it then
        // retransmits nothing and reports the remaining time, and the next one acts.
        var retransmitted: [UInt8]?
        for _ in 0..<5 where retransmitted == nil {
            let deadline = try #require(client.nextTimeout)
            let wait = deadline - clock.now()
            if wait > .zero { try await Task.sleep(for: wait) }
            client.handleTimeout(now: clock.now())
            retransmitted = client.pollTransmit()
        }
        #expect(retransmitted != nil, "retransmitted once the system clock passed OpenSSL's timer")
        #expect(client.statistics.retransmissionTimeouts == 1)
    }

    @Test(.enabled(if: virtualTimeRetransmits)) func handshakeGivesUpAfterOpenSSLsRetransmissionLimit() throws {
        let harness = try DTLSTestHarness.make(conditions: .init(lossRate: 1.0), handshakeTimeout: .seconds(7200))
        harness.client.start(now: harness.now)
        harness.run(limit: .seconds(3600)) { $0.client.state == .failed }
        #expect(DTLSTestHarness.failure(in: harness.clientEvents) == .handshakeTimeout)
    }

    @Test func thirdCertificateIsRejectedAsFingerprintMismatch() throws {
        // The server presents a certificate other than the one its SDP advertised.
        let clientCert = try Certificates.shared(.ecdsaP256)
        let advertised = try DTLSCertificate.generate(.ecdsaP256)
        let attacker = try DTLSCertificate.generate(.ecdsaP256)
        let client = try DTLSEndpoint(configuration: .virtualTime(role: .client, certificate: clientCert,
                                                           remoteFingerprints: [advertised.fingerprint()]))
        let server = try DTLSEndpoint(configuration: .virtualTime(role: .server, certificate: attacker,
                                                           remoteFingerprints: [clientCert.fingerprint()]))
        let harness = DTLSTestHarness(client: client, server: server)
        #expect(!harness.handshake())
        #expect(harness.client.state == .failed)
        // Let the client's bad_certificate alert reach the server.
        harness.run(limit: .seconds(5)) { $0.server.state == .failed }
        #expect(DTLSTestHarness.failure(in: harness.clientEvents)
            == .fingerprintMismatch(expected: [advertised.fingerprint()], actual: attacker.fingerprint()))
        #expect(!harness.clientEvents.contains { if case .connected = $0 { true } else { false } })
        // The server hears why (bad certificate) and fails too; no keys, no data on either side.
        #expect(harness.server.state == .failed)
        #expect(harness.server.connectionInfo == nil && harness.client.connectionInfo == nil)
        #expect(throws: DTLSError.closed) { try harness.server.send(applicationData: [1]) }
        #expect(DTLSTestHarness.applicationData(in: harness.clientEvents + harness.serverEvents).isEmpty)
    }

    @Test(arguments: DTLSFingerprint.Algorithm.allCases)
    func tamperedFingerprintOfAnyHashAbortsTheServer(algorithm: DTLSFingerprint.Algorithm) throws {
        let clientCert = try Certificates.shared(.ecdsaP256)
        let serverCert = try DTLSCertificate.generate(.ecdsaP256)
        var tampered = clientCert.fingerprint(algorithm)
        tampered.digest[0] ^= 0x01
        let client = try DTLSEndpoint(configuration: .virtualTime(role: .client, certificate: clientCert,
                                                           remoteFingerprints: [serverCert.fingerprint()]))
        let server = try DTLSEndpoint(configuration: .virtualTime(role: .server, certificate: serverCert,
                                                           remoteFingerprints: [tampered]))
        let harness = DTLSTestHarness(client: client, server: server)
        #expect(!harness.handshake())
        harness.run(limit: .seconds(5)) { $0.client.state == .failed }
        #expect(DTLSTestHarness.failure(in: harness.serverEvents)
            == .fingerprintMismatch(expected: [tampered], actual: clientCert.fingerprint(algorithm)))
        #expect(harness.client.state == .failed)
        if case let .fatalAlertReceived(alert)? = DTLSTestHarness.failure(in: harness.clientEvents) {
            #expect(alert.name == "bad certificate")
        } else {
            Issue.record("client should fail with the server's bad_certificate alert, got \(harness.clientEvents)")
        }
    }

    @Test func anyMatchingFingerprintAmongSeveralHashesIsEnough() throws {
        let clientCert = try Certificates.shared(.ecdsaP256)
        let serverCert = try DTLSCertificate.generate(.ecdsaP256)
        var wrong = serverCert.fingerprint(.sha256)
        wrong.digest[5] ^= 0xFF
        let client = try DTLSEndpoint(configuration: .virtualTime(
            role: .client, certificate: clientCert,
            remoteFingerprints: [wrong, serverCert.fingerprint(.sha384)]))
        let server = try DTLSEndpoint(configuration: .virtualTime(role: .server, certificate: serverCert,
                                                           remoteFingerprints: [clientCert.fingerprint(.sha1)]))
        let harness = DTLSTestHarness(client: client, server: server)
        #expect(harness.handshake())
        #expect(harness.client.connectionInfo?.remoteFingerprint == serverCert.fingerprint(.sha384))
        #expect(harness.server.connectionInfo?.remoteFingerprint == clientCert.fingerprint(.sha1))
    }

    @Test func malformedDatagramsAreCountedAndDroppedDuringAndAfterTheHandshake() throws {
        let harness = try DTLSTestHarness.make()
        var random = SeededRandom(seed: 7)
        func garbage() -> [[UInt8]] {
            var out: [[UInt8]] = []
            for _ in 0..<200 {
                let length = Int.random(in: 0...300, using: &random)
                out.append((0..<length).map { _ in UInt8.random(in: 0...255, using: &random) })
            }
            // Truncated records: a real header announcing more bytes than follow.
            out.append([22, 0xFE, 0xFD, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0x00, 1, 2, 3])
            out.append([23, 0xFE, 0xFD, 0, 1])
            out.append([])
            return out
        }
        harness.client.start(now: harness.now)
        harness.flush()
        for datagram in garbage() {
            harness.server.handle(datagram: datagram, now: harness.now)
            harness.client.handle(datagram: datagram, now: harness.now)
        }
        #expect(harness.handshake())
        let before = harness.server.statistics.malformedDatagramsDropped
        #expect(before >= 200)
        for datagram in garbage() {
            harness.server.handle(datagram: datagram, now: harness.now)
        }
        // Well-framed records with garbage inside: OpenSSL drops them silently (RFC 6347 §4.1.2.7).
        for epoch: UInt8 in 0...1 {
            var record: [UInt8] = [23, 0xFE, 0xFD, 0, epoch, 0, 0, 0, 0, 0, 99, 0, 40]
            record += (0..<40).map { _ in UInt8.random(in: 0...255, using: &random) }
            harness.server.handle(datagram: record, now: harness.now)
        }
        #expect(harness.server.statistics.malformedDatagramsDropped >= before + 200)
        #expect(harness.server.state == .connected)
        try harness.client.send(applicationData: [42])
        harness.run { !DTLSTestHarness.applicationData(in: $0.serverEvents).isEmpty }
        #expect(DTLSTestHarness.applicationData(in: harness.serverEvents) == [[42]])
    }

    @Test func wellFramedGarbageBeforeTheClientHelloDoesNotKillTheHandshake() throws {
        // OpenSSL aborts a handshake on an unparsable plaintext message; such records are
        // filtered out first, so stray junk on the 5-tuple cannot end the association.
        var random = SeededRandom(seed: 3)
        for trial in 0..<40 {
            let harness = try DTLSTestHarness.make()
            var body = (0..<60).map { _ in UInt8.random(in: 0...255, using: &random) }
            if trial % 2 == 0 { body[0] = 1 }  // claims to be a ClientHello
            let record: [UInt8] = [22, 0xFE, 0xFD, 0, 0, 0, 0, 0, 0, 0, UInt8(trial), 0, 60] + body
            harness.server.handle(datagram: record, now: .zero)
            harness.server.handle(datagram: [20, 0xFE, 0xFD, 0, 0, 0, 0, 0, 0, 0, 1, 0, 2, 1, 1], now: .zero)
            #expect(harness.server.statistics.malformedDatagramsDropped == 2)
            #expect(harness.handshake(), "trial \(trial)")
        }
    }

    @Test(.enabled(if: virtualTimeRetransmits))
    func corruptedHandshakeDatagramsNeverYieldMismatchedKeys() throws {
        // Every datagram on the link has a 15 % chance of one flipped byte. Whatever OpenSSL makes
        // of it (drop, retransmit, abort), the endpoints must never crash, and a pair that does
        // connect must agree on the keys: the Finished MACs cover the whole handshake.
        var random = SeededRandom(seed: 21)
        var connectedPairs = 0
        for trial in 0..<60 {
            let harness = try DTLSTestHarness.make(conditions: .init(delay: .milliseconds(5)), seed: UInt64(trial))
            harness.clientRewrite = { datagram in
                var copy = datagram
                if random.chance(0.15), !copy.isEmpty {
                    copy[Int.random(in: 0..<copy.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
                }
                return [copy]
            }
            let connected = harness.handshake(limit: .seconds(400))
            if connected {
                connectedPairs += 1
                #expect(harness.clientKeying == harness.serverKeying, "trial \(trial)")
            } else {
                #expect(harness.client.state != .connected || harness.server.state != .connected)
            }
        }
        #expect(connectedPairs > 0)
    }
}

/// The production timer (OpenSSL's own, on the wall clock): a flight held back past the first
/// retransmission timeout, so OpenSSL resends while the handshake is in flight, must not stop it.
@Suite struct DTLSWallClockRetransmissionTests {
    @Test func aHandshakeStalledPastTheFirstTimeoutStillCompletes() throws {
        let clientCertificate = try Certificates.shared(.ecdsaP256), serverCertificate = try Certificates.shared(.ecdsaP256)
        let client = try DTLSEndpoint(configuration: DTLSConfiguration(
            role: .client, certificate: clientCertificate, remoteFingerprints: [serverCertificate.fingerprint()]))
        let server = try DTLSEndpoint(configuration: DTLSConfiguration(
            role: .server, certificate: serverCertificate, remoteFingerprints: [clientCertificate.fingerprint()]))
        let clock = SystemClock()
        client.start(now: clock.now())
        server.start(now: clock.now())
        var stalls = 0
        for round in 0..<20 where client.state != .connected || server.state != .connected {
            var toServer: [[UInt8]] = []
            while let datagram = client.pollTransmit() { toServer.append(datagram) }
            for datagram in toServer { server.handle(datagram: datagram, now: clock.now()) }
            var toClient: [[UInt8]] = []
            while let datagram = server.pollTransmit() { toClient.append(datagram) }
            if round < 2, !toClient.isEmpty {
                // The server's flight arrives after the client's first timeout (1 s): OpenSSL resends.
                Thread.sleep(forTimeInterval: 1.2)
                stalls += 1
            }
            client.handleTimeout(now: clock.now())
            server.handleTimeout(now: clock.now())
            for datagram in toClient { client.handle(datagram: datagram, now: clock.now()) }
        }
        #expect(stalls > 0)
        #expect(client.state == .connected && server.state == .connected,
                "client \(client.state), server \(server.state), client retransmissions \(client.statistics.retransmissionTimeouts)")
    }
}
