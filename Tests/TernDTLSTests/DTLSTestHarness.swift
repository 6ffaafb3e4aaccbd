import Synchronization
public import TernCore
@testable public import TernDTLS
public import TernTestSupport

extension DTLSEndpoint: SansIOEndpoint {
    public func handle(packet: [UInt8], now: Instant) { handle(datagram: packet, now: now) }
    public func pollTransmit(now: Instant) -> [UInt8]? { pollTransmit() }
}

/// A DTLS client (`a`) and server (`b`) on the shared virtual-time harness (`SansIOPair`), with
/// what each sent and the events each raised kept for the test.
final class DTLSTestHarness {
    let pair: SansIOPair<DTLSEndpoint>
    var client: DTLSEndpoint { pair.a }
    var server: DTLSEndpoint { pair.b }
    var now: Instant { pair.now }
    var clientEvents: [DTLSEvent] = []
    var serverEvents: [DTLSEvent] = []
    /// Every datagram the client/server emitted, in order (for replay/tamper tests).
    var clientSent: [[UInt8]] = []
    var serverSent: [[UInt8]] = []
    /// Rewrites what the client sends before it reaches the link (e.g. to fragment it differently).
    var clientRewrite: (([UInt8]) -> [[UInt8]])?

    init(client: DTLSEndpoint, server: DTLSEndpoint, conditions: SimulatedLink.Conditions = .perfect, seed: UInt64 = 1) {
        pair = SansIOPair(a: client, b: server, conditions: conditions, seed: seed)
        pair.outbound = { [unowned self] end, datagram in
            if end == .a {
                clientSent.append(datagram)
                return clientRewrite?(datagram) ?? [datagram]
            }
            serverSent.append(datagram)
            return [datagram]
        }
        pair.onStep = { [unowned self] in drainEvents() }
    }

    /// A harness with fresh certificates; each side trusts the other's SHA-256 fingerprint.
    static func make(
        clientKey: DTLSCertificate.KeyType = .ecdsaP256, serverKey: DTLSCertificate.KeyType = .ecdsaP256,
        profiles: [SRTPProtectionProfile] = SRTPProtectionProfile.defaultPreference,
        conditions: SimulatedLink.Conditions = .perfect, seed: UInt64 = 1, handshakeTimeout: Duration = .seconds(30)
    ) throws -> DTLSTestHarness {
        let clientCertificate = try Certificates.shared(clientKey)
        let serverCertificate = try Certificates.shared(serverKey)
        var clientConfiguration = DTLSConfiguration(
            role: .client, certificate: clientCertificate,
            remoteFingerprints: [serverCertificate.fingerprint()], srtpProfiles: profiles)
        var serverConfiguration = DTLSConfiguration(
            role: .server, certificate: serverCertificate,
            remoteFingerprints: [clientCertificate.fingerprint()], srtpProfiles: profiles)
        // Virtual time: the harness's `now` jumps, so retransmissions must follow it (DTLSTimer).
        clientConfiguration.retransmitsOnCallerClockForTesting = true
        clientConfiguration.handshakeTimeout = handshakeTimeout
        serverConfiguration.handshakeTimeout = handshakeTimeout
        serverConfiguration.retransmitsOnCallerClockForTesting = true
        let client = try DTLSEndpoint(configuration: clientConfiguration)
        let server = try DTLSEndpoint(configuration: serverConfiguration)
        return DTLSTestHarness(client: client, server: server, conditions: conditions, seed: seed)
    }

    /// Moves queued datagrams onto the link and events into the logs.
    func flush() {
        pair.flush()
        drainEvents()
    }

    private func drainEvents() {
        while let event = client.pollEvent() { clientEvents.append(event) }
        while let event = server.pollEvent() { serverEvents.append(event) }
    }

    /// Runs until `done` holds, nothing is pending or `limit` of virtual time passed.
    @discardableResult
    func run(limit: Duration = .seconds(120), until done: (DTLSTestHarness) -> Bool) -> Bool {
        flush()
        return pair.run(for: limit) { done(self) }
    }

    /// Starts the client and runs until both sides are connected (or something failed).
    @discardableResult
    func handshake(limit: Duration = .seconds(120)) -> Bool {
        client.start(now: now)
        server.start(now: now)
        return run(limit: limit) {
            ($0.client.state == .connected && $0.server.state == .connected)
                || $0.client.state == .failed || $0.server.state == .failed
        } && client.state == .connected && server.state == .connected
    }

    var clientKeying: SRTPKeyingMaterial? { Self.keying(in: clientEvents) }
    var serverKeying: SRTPKeyingMaterial? { Self.keying(in: serverEvents) }

    static func keying(in events: [DTLSEvent]) -> SRTPKeyingMaterial? {
        for case let .connected(_, keying) in events { return keying }
        return nil
    }

    static func failure(in events: [DTLSEvent]) -> DTLSError? {
        for case let .failed(error) in events { return error }
        return nil
    }

    static func applicationData(in events: [DTLSEvent]) -> [[UInt8]] {
        events.compactMap { if case let .applicationData(bytes) = $0 { bytes } else { nil } }
    }
}

/// Certificates are generated once per key type and reused across tests (RSA-2048 takes a while).
enum Certificates {
    private static let cache = Mutex<[String: DTLSCertificate]>([:])

    static func shared(_ type: DTLSCertificate.KeyType) throws -> DTLSCertificate {
        let name = "\(type)"
        if let hit = cache.withLock({ $0[name] }) { return hit }
        let made = try DTLSCertificate.generate(type)
        return cache.withLock { cache in
            if let hit = cache[name] { return hit }
            cache[name] = made
            return made
        }
    }
}

/// RTP packets for SRTP tests (RFC 3550 §5.1).
enum RTPPacket {
    static func make(sequence: UInt16, timestamp: UInt32 = 0, ssrc: UInt32 = 0x1234_5678, payload: [UInt8]) -> [UInt8] {
        var writer = ByteWriter()
        writer.write(UInt8(0x80))
        writer.write(UInt8(96))
        writer.write(sequence)
        writer.write(timestamp)
        writer.write(ssrc)
        writer.write(contentsOf: payload)
        return writer.bytes
    }

    /// An RTCP receiver report with no blocks (RFC 3550 §6.4.2).
    static func receiverReport(ssrc: UInt32 = 0x1234_5678) -> [UInt8] {
        var writer = ByteWriter()
        writer.write(UInt8(0x80))
        writer.write(UInt8(201))
        writer.write(UInt16(1))
        writer.write(ssrc)
        return writer.bytes
    }
}

extension DTLSConfiguration {
    /// A configuration for virtual-time tests: retransmissions follow the harness's `now`
    /// (`retransmitsOnCallerClockForTesting`, see DTLSTimer for what that covers).
    static func virtualTime(
        role: DTLSRole, certificate: DTLSCertificate, remoteFingerprints: [DTLSFingerprint],
        srtpProfiles: [SRTPProtectionProfile] = SRTPProtectionProfile.defaultPreference,
        maximumDatagramSize: Int = 1200, initialRetransmissionTimeout: Duration = .milliseconds(100),
        maximumRetransmissionTimeout: Duration = .seconds(60)
    ) -> DTLSConfiguration {
        var configuration = DTLSConfiguration(
            role: role, certificate: certificate, remoteFingerprints: remoteFingerprints, srtpProfiles: srtpProfiles,
            maximumDatagramSize: maximumDatagramSize, initialRetransmissionTimeout: initialRetransmissionTimeout,
            maximumRetransmissionTimeout: maximumRetransmissionTimeout)
        configuration.retransmitsOnCallerClockForTesting = true
        return configuration
    }
}
