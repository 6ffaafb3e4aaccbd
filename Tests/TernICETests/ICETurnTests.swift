import Foundation
import Testing
import TernSDP
import TernCore
@testable import TernICE

/// ICE through a real coturn started by the test on loopback.
@Suite(.serialized) struct ICETurnTests {
    /// Relay-only through `coturn`. For `tls`: `turns:<host>:<tls port>`, trusting the test CA
    /// that signed coturn's certificate when `trustTestCA` (and not the system store, which could
    /// not vouch for it anyway).
    static func relayConfiguration(_ coturn: Coturn, transport: String, host: String = "127.0.0.1",
                                   trustTestCA: Bool = true) throws -> ICEConfiguration {
        var c = ICEConfiguration.loopback
        c.transportPolicy = .relay
        let url = if transport == "tls", let tlsPort = coturn.tlsPort {
            "turns:\(host):\(tlsPort)"
        } else {
            "turn:\(host):\(coturn.port)?transport=\(transport)"
        }
        c.servers = [try ICEServer(url: url, username: "u", credential: "p")]
        if trustTestCA, let ca = coturn.certificateAuthorityPEM {
            c.turnTLS.useSystemTrustStore = false
            c.turnTLS.trustedCertificatesPEM = [ca]
        }
        return c
    }

    static func turnTLSFailures(_ t: ICETransport) -> [String] {
        t.trace.entries.compactMap { if case let .turnTLSFailed(_, reason) = $0.event { reason } else { nil } }
    }

    static func turnTLSSessions(_ t: ICETransport) -> [String] {
        t.trace.entries.compactMap {
            if case let .turnTLSEstablished(_, version, cipher) = $0.event { "\(version) \(cipher)" } else { nil }
        }
    }

    @Test(.enabled(if: Coturn.installed, "needs coturn (apt-get install coturn) and openssl"))
    func stunServerOnLoopbackAnswersBindingRequestsDuringGathering() async throws {
        guard let coturn = try Coturn.startIfInstalled() else { return }
        defer { coturn.stop() }
        var c = ICEConfiguration.loopback
        c.servers = [try ICEServer(url: "stun:127.0.0.1:\(coturn.port)")]
        let t = try ICETransport(configuration: c, role: .controlling)
        try t.gather()
        #expect(await eventually { t.gatheringState == .complete })
        let types = Set(t.localCandidates.map(\.candidateType))
        // On loopback the mapped address equals the host address, so libnice folds the srflx
        // candidate into the host one (RFC 8445 §5.1.3 redundancy); the srflx path itself is
        // proven with FakeSTUNServer below.
        #expect(types.contains(.host))
        print("STUN gather on loopback produced: \(t.localCandidates.map(\.candidateString))")
        t.close()
    }

    @Test func serverReflexiveCandidateComesFromTheSTUNMappedAddress() async throws {
        let stun = try FakeSTUNServer(mapped: (ip: [203, 0, 113, 7], port: 40_000))
        defer { stun.stop() }
        var c = ICEConfiguration.loopback
        c.servers = [try ICEServer(url: "stun:127.0.0.1:\(stun.port)")]
        let t = try ICETransport(configuration: c, role: .controlling)
        try t.gather()
        #expect(await eventually { t.gatheringState == .complete })
        let host = try #require(t.localCandidates.first { $0.candidateType == .host })
        let srflx = try #require(t.localCandidates.first { $0.candidateType == .srflx })
        #expect(srflx.address == "203.0.113.7" && srflx.port == 40_000)
        #expect(srflx.relatedAddress == "127.0.0.1" && srflx.relatedPort == host.port)
        #expect(stun.requests >= 1)
        t.close()
    }

    /// `tls` runs coturn with a certificate from a throwaway test CA and a TLS listening port,
    /// and gives the agents `turns:127.0.0.1:<tls port>` trusting that CA: libnice talks TURN/TCP
    /// to Tern's local TLS bridge, which verifies coturn's certificate and relays over TLS.
    @Test(.enabled(if: Coturn.installed, "needs coturn (apt-get install coturn) and openssl"), arguments: ["udp", "tcp", "tls"])
    func relayPolicyConnectsOnlyThroughTURN(transport: String) async throws {
        guard let coturn = try Coturn.startIfInstalled(tls: transport == "tls") else { return }
        defer { coturn.stop() }
        let a = try ICEPeer(.controlling, Self.relayConfiguration(coturn, transport: transport))
        let b = try ICEPeer(.controlled, Self.relayConfiguration(coturn, transport: transport))
        let tasks = try wire(a, b)
        let connected = await eventually(within: .seconds(20)) { a.transport.selectedPair != nil && b.transport.selectedPair != nil }
        #expect(connected)
        if !connected {
            print("TURN/\(transport) not connected. A:\n\(a.transport.trace)\nB:\n\(b.transport.trace)\ncoturn log:\n\(coturn.logTail())")
        }
        // Nothing but relay candidates is signalled under policy relay.
        let signalled = a.events.withLock { $0.compactMap { if case let .candidate(c) = $0 { c } else { nil } } }
        #expect(!signalled.isEmpty && signalled.allSatisfy { $0.candidateType == .relay })
        let pair = try #require(a.transport.selectedPair)
        #expect(pair.local.candidateType == .relay)
        #expect(!pair.isDirect)
        for i in 0..<10 { try a.transport.send([UInt8(i)]); try b.transport.send([UInt8(100 + i)]) }
        #expect(await eventually { b.received.withLock { $0.count } == 10 && a.received.withLock { $0.count } == 10 })
        // The RTT probes travel the relay path too (through coturn both ways).
        for side in [a, b] {
            #expect(await eventually { (side.transport.selectedPair?.responsesReceived ?? 0) > 0 })
            #expect((side.transport.selectedPair?.roundTripTime ?? .zero) > .zero)
        }
        if transport == "tls" {
            // A verified TLS session to coturn carried the allocation (TLS 1.2 or later).
            for side in [a, b] {
                let sessions = Self.turnTLSSessions(side.transport)
                #expect(!sessions.isEmpty && sessions.allSatisfy { $0.hasPrefix("TLSv1.2") || $0.hasPrefix("TLSv1.3") })
                #expect(Self.turnTLSFailures(side.transport).isEmpty)
            }
        }
        print("TURN/\(transport) trace:\n\(a.transport.trace)")
        a.transport.close(); b.transport.close()
        for t in tasks { await t.value }
    }

    /// libnice 0.1.21 in RFC 5245 mode opens a plain TCP connection for NICE_RELAY_TYPE_TURN_TLS
    /// (Docs/ICE.md, "TURN over TLS"), so Tern puts its own TLS bridge in between: the first
    /// bytes a `turns:` server receives are a TLS ClientHello (record type 0x16, handshake type 1)
    /// carrying the configured host name as SNI — not the STUN Allocate request in clear
    /// (`00 03 … 21 12 a4 42`) libnice sends to the bridge.
    @Test func turnsServerReceivesATLSClientHelloWithSNI() async throws {
        let listener = try FirstBytesListener()
        defer { listener.stop() }
        var c = ICEConfiguration.loopback
        c.transportPolicy = .relay
        c.servers = [try ICEServer(url: "turns:localhost:\(listener.port)", username: "u", credential: "p")]
        let t = try ICETransport(configuration: c, role: .controlling)
        try t.gather()
        #expect(await eventually(within: .seconds(10)) { listener.received.count >= 64 })
        let bytes = listener.received
        #expect(bytes.first == 0x16, "TLS handshake record")
        #expect(bytes.count > 5 && bytes[1] == 0x03 && bytes[5] == 0x01, "ClientHello")
        #expect(Array(bytes.prefix(2)) != [0x00, 0x03], "not a STUN Allocate request in clear")
        let sni = Array("localhost".utf8)
        #expect((0...(bytes.count - sni.count)).contains { Array(bytes[$0..<$0 + sni.count]) == sni }, "SNI = host name")
        // The trace says the bridge is used, with verification on.
        #expect(t.trace.entries.contains {
            if case let .turnTLSBridge(_, bridge, verifies) = $0.event { bridge.hasPrefix("127.0.0.1:") && verifies } else { false }
        })
        t.close()
    }

    /// An IPv6 `turns:` server: the bridge listens on ::1 and libnice reaches it from its IPv6
    /// host candidate; the server receives a ClientHello, without SNI (RFC 6066 §3: no IP literals).
    @Test func turnsServerOnIPv6GetsItsBridgeOnIPv6Loopback() async throws {
        let listener: FirstBytesListener
        do { listener = try FirstBytesListener(ipv6: true) } catch {
            print("skipping: no IPv6 loopback here (\(error))")
            return
        }
        defer { listener.stop() }
        var c = ICEConfiguration()
        c.allowedAddresses = ["::1"]
        c.transportPolicy = .relay
        c.servers = [try ICEServer(url: "turns:[::1]:\(listener.port)", username: "u", credential: "p")]
        let t = try ICETransport(configuration: c, role: .controlling)
        try t.gather()
        #expect(await eventually(within: .seconds(10)) { listener.received.count >= 6 })
        let bytes = listener.received
        #expect(bytes.first == 0x16 && bytes.count > 5 && bytes[5] == 0x01, "TLS ClientHello")
        #expect(t.trace.entries.contains {
            if case let .turnTLSBridge(_, bridge, _) = $0.event { bridge.hasPrefix("[::1]:") } else { false }
        })
        t.close()
    }

    /// coturn's certificate is signed by a CA the configuration does not trust (system store
    /// only): the bridge refuses the server, libnice gets no allocation, gathering still
    /// completes, no relay candidate appears, and the trace names the verification failure.
    @Test(.enabled(if: Coturn.installed, "needs coturn (apt-get install coturn) and openssl"))
    func turnsServerWithAnUntrustedCertificateGivesNoRelayCandidate() async throws {
        guard let coturn = try Coturn.startIfInstalled(tls: true) else { return }
        defer { coturn.stop() }
        let c = try Self.relayConfiguration(coturn, transport: "tls", trustTestCA: false)
        let t = try ICETransport(configuration: c, role: .controlling)
        try t.gather()
        #expect(await eventually(within: .seconds(30)) { t.gatheringState == .complete })
        #expect(!t.localCandidates.contains { $0.candidateType == .relay })
        let failures = Self.turnTLSFailures(t)
        #expect(failures.contains { $0.contains("certificate verification failed") && $0.contains("local issuer") },
                "\(failures)")
        #expect(Self.turnTLSSessions(t).isEmpty)
        print("untrusted turns: trace:\n\(t.trace)")
        t.close()
    }

    /// The certificate is valid for IP 127.0.0.1 only; `turns:localhost:…` reaches the same
    /// server (localhost resolves to 127.0.0.1) but the name does not match: refused, with reason.
    @Test(.enabled(if: Coturn.installed, "needs coturn (apt-get install coturn) and openssl"))
    func turnsServerWhoseCertificateNamesAnotherHostIsRefused() async throws {
        guard let coturn = try Coturn.startIfInstalled(tls: true) else { return }
        defer { coturn.stop() }
        let c = try Self.relayConfiguration(coturn, transport: "tls", host: "localhost")
        let t = try ICETransport(configuration: c, role: .controlling)
        try t.gather()
        #expect(await eventually(within: .seconds(30)) { t.gatheringState == .complete })
        #expect(!t.localCandidates.contains { $0.candidateType == .relay })
        let failures = Self.turnTLSFailures(t)
        #expect(failures.contains { $0.contains("hostname mismatch") }, "\(failures)")
        t.close()
    }

    /// `insecureSkipVerify` (tests only) accepts the untrusted certificate: still TLS, and the
    /// trace marks the server as not verified.
    @Test(.enabled(if: Coturn.installed, "needs coturn (apt-get install coturn) and openssl"))
    func insecureSkipVerifyStillUsesTLSButSaysSo() async throws {
        guard let coturn = try Coturn.startIfInstalled(tls: true) else { return }
        defer { coturn.stop() }
        var c = try Self.relayConfiguration(coturn, transport: "tls", host: "localhost", trustTestCA: false)
        c.turnTLS.insecureSkipVerify = true
        let t = try ICETransport(configuration: c, role: .controlling)
        try t.gather()
        #expect(await eventually(within: .seconds(30)) { t.gatheringState == .complete })
        #expect(t.localCandidates.contains { $0.candidateType == .relay })
        #expect(!Self.turnTLSSessions(t).isEmpty)
        #expect(t.trace.entries.contains {
            if case let .turnTLSBridge(_, _, verifies) = $0.event { !verifies } else { false }
        })
        t.close()
    }

    /// Nothing listens on the `turns:` port: the bridge reports the refused TCP connection and
    /// gathering still completes (libnice's Allocate times out on the held-open bridge socket).
    @Test func turnsServerThatIsDownGivesANamedFailureAndGatheringCompletes() async throws {
        let listener = try FirstBytesListener()
        let port = listener.port
        listener.stop() // the port is now closed
        var c = ICEConfiguration.loopback
        c.transportPolicy = .relay
        c.servers = [try ICEServer(url: "turns:127.0.0.1:\(port)", username: "u", credential: "p")]
        let t = try ICETransport(configuration: c, role: .controlling)
        try t.gather()
        #expect(await eventually(within: .seconds(30)) { t.gatheringState == .complete })
        #expect(t.localCandidates.isEmpty)
        let failures = Self.turnTLSFailures(t)
        #expect(failures.contains { $0.contains("cannot connect to 127.0.0.1:\(port)") && $0.contains("refused") },
                "\(failures)")
        t.close()
    }

    /// `close()` stops the TLS bridge's listener in the teardown hop (nothing can connect to it
    /// afterwards), and dropping the transport lets the agent finish closing and the bridge go.
    @Test(.enabled(if: Coturn.installed, "needs coturn (apt-get install coturn) and openssl"))
    func closingTheTransportClosesItsTLSBridge() async throws {
        guard let coturn = try Coturn.startIfInstalled(tls: true) else { return }
        defer { coturn.stop() }
        var t: ICETransport? = try ICETransport(configuration: Self.relayConfiguration(coturn, transport: "tls"),
                                                role: .controlling)
        try t?.gather()
        #expect(await eventually { t?.localCandidates.contains { $0.candidateType == .relay } ?? false })
        let bridge = try #require(t?.trace.entries.compactMap {
            if case let .turnTLSBridge(_, bridge, _) = $0.event { bridge } else { nil }
        }.first)
        let port = try #require(UInt16(bridge.split(separator: ":").last ?? ""))
        #expect(Self.canConnect(toLoopbackPort: port))
        t?.close()
        #expect(!Self.canConnect(toLoopbackPort: port))
        weak let dropped = t
        weak let bridgeObject = t?.agent.bridges.first
        #expect(bridgeObject != nil)
        t = nil
        #expect(await eventually { dropped == nil })
        // Released once libnice's close completed (NiceAgentHandle), with its connections.
        #expect(await eventually { bridgeObject == nil })
    }

    static func canConnect(toLoopbackPort port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// A `trustedCertificatesPEM` entry with no certificate in it is a configuration error.
    @Test func trustedCertificatesWithoutAPEMCertificateAreRejected() throws {
        var c = ICEConfiguration.loopback
        c.servers = [try ICEServer(url: "turns:127.0.0.1:5349", username: "u", credential: "p")]
        c.turnTLS.trustedCertificatesPEM = ["not a certificate"]
        #expect(throws: ICEError.self) { _ = try ICETransport(configuration: c, role: .controlling) }
    }
}
