import Foundation
import Testing
import TernSDP
import TernCore
@testable import TernICE

/// A real NAT (iptables MASQUERADE in a network namespace) between two agents, with coturn
/// on the "internet" side. Root only; skipped otherwise.
@Suite(.serialized) struct ICENATTests {
    @Test(.enabled(if: NetworkLab.available && Coturn.installed, "needs root, iproute2 and coturn"))
    func agentBehindNATGathersItsPublicAddressAndConnects() async throws {
        guard let lab = NetworkLab.makeIfPossible() else { return }
        defer { lab.tearDown() }
        guard FileManager.default.isExecutableFile(atPath: Coturn.executable) else { return }
        let coturn = try Coturn(ip: NetworkLab.wanAddress, namespace: lab.wan)
        defer { coturn.stop() }

        var inside = ICEConfiguration()
        inside.allowedAddresses = [NetworkLab.lanAddress]
        inside.servers = [try ICEServer(url: "stun:\(NetworkLab.wanAddress):\(coturn.port)")]
        var outside = ICEConfiguration()
        outside.allowedAddresses = [NetworkLab.wanAddress]
        let a = try ICEPeer(.controlling, ICETransport(configuration: inside, role: .controlling,
                                                       loop: .inNetworkNamespace(lab.path(lab.lan), name: "lan")))
        let b = try ICEPeer(.controlled, ICETransport(configuration: outside, role: .controlled,
                                                      loop: .inNetworkNamespace(lab.path(lab.wan), name: "wan")))
        let tasks = try wire(a, b)
        #expect(await eventually { a.transport.gatheringState == .complete })
        let srflx = try #require(a.transport.localCandidates.first { $0.candidateType == .srflx })
        #expect(srflx.address == NetworkLab.natPublicAddress)       // the NAT's public side
        #expect(srflx.relatedAddress == NetworkLab.lanAddress)      // our private base
        #expect(await eventually { a.transport.selectedPair != nil && b.transport.selectedPair != nil })
        // The outside agent sees us only at the NAT's address.
        #expect(b.transport.selectedPair?.remote.address == NetworkLab.natPublicAddress)
        try a.transport.send([1, 2, 3]); try b.transport.send([4, 5, 6])
        #expect(await eventually { b.received.withLock { $0.contains([1, 2, 3]) } && a.received.withLock { $0.contains([4, 5, 6]) } })
        // Round-trip time measured across the NAT, on both sides.
        #expect(await eventually { (a.transport.selectedPair?.responsesReceived ?? 0) > 0 })
        #expect(await eventually { (b.transport.selectedPair?.responsesReceived ?? 0) > 0 })
        print("NAT trace (inside agent):\n\(a.transport.trace)")
        a.transport.close(); b.transport.close()
        for t in tasks { await t.value }
    }

    /// `tls`: `turns:` to coturn across the NAT with a test-CA certificate. The TLS bridge runs on
    /// the inside agent's loop thread, so its listener and its connection to the server live in
    /// the lan namespace like libnice's sockets.
    @Test(.enabled(if: NetworkLab.available && Coturn.installed, "needs root, iproute2 and coturn"), arguments: ["udp", "tls"])
    func relayOnlyAgentBehindNATConnectsThroughTURN(transport: String) async throws {
        guard let lab = NetworkLab.makeIfPossible() else { return }
        defer { lab.tearDown() }
        guard FileManager.default.isExecutableFile(atPath: Coturn.executable) else { return }
        if transport == "tls", !FileManager.default.isExecutableFile(atPath: Coturn.openssl) {
            print("skipping: \(Coturn.openssl) is not installed; it makes the test certificates")
            return
        }
        let coturn = try Coturn(ip: NetworkLab.wanAddress, namespace: lab.wan, tls: transport == "tls")
        defer { coturn.stop() }

        var inside = ICEConfiguration()
        inside.allowedAddresses = [NetworkLab.lanAddress]
        inside.transportPolicy = .relay
        if transport == "tls", let tlsPort = coturn.tlsPort, let ca = coturn.certificateAuthorityPEM {
            inside.servers = [try ICEServer(url: "turns:\(NetworkLab.wanAddress):\(tlsPort)", username: "u", credential: "p")]
            inside.turnTLS.trustedCertificatesPEM = [ca]
        } else {
            inside.servers = [try ICEServer(url: "turn:\(NetworkLab.wanAddress):\(coturn.port)", username: "u", credential: "p")]
        }
        var outside = ICEConfiguration()
        outside.allowedAddresses = [NetworkLab.wanAddress]
        let a = try ICEPeer(.controlling, ICETransport(configuration: inside, role: .controlling,
                                                       loop: .inNetworkNamespace(lab.path(lab.lan), name: "lan")))
        let b = try ICEPeer(.controlled, ICETransport(configuration: outside, role: .controlled,
                                                      loop: .inNetworkNamespace(lab.path(lab.wan), name: "wan")))
        let tasks = try wire(a, b)
        #expect(await eventually(within: .seconds(20)) { a.transport.selectedPair != nil && b.transport.selectedPair != nil })
        #expect(a.transport.selectedPair?.local.candidateType == .relay)
        // The peer sees the TURN server's relayed address, never the NAT or the private one.
        #expect(b.transport.selectedPair?.remote.address == NetworkLab.wanAddress)
        #expect(b.transport.selectedPair?.remote.port != nil)
        try a.transport.send([9]); try b.transport.send([8])
        #expect(await eventually { b.received.withLock { $0.contains([9]) } && a.received.withLock { $0.contains([8]) } })
        // Round-trip time of the relay pair: NAT → TURN server → peer and back.
        #expect(await eventually { (a.transport.selectedPair?.responsesReceived ?? 0) > 0 })
        if transport == "tls" {
            #expect(a.transport.trace.entries.contains { if case .turnTLSEstablished = $0.event { true } else { false } })
            print("NAT turns: trace (inside agent):\n\(a.transport.trace)")
        }
        a.transport.close(); b.transport.close()
        for t in tasks { await t.value }
    }

    /// libnice 0.1.21 expires consent after 10 s; Tern reports `disconnected` and waits
    /// `consentFailureGrace` before `failed`. An ICE restart inside the grace recovers.
    @Test(.enabled(if: NetworkLab.available, "needs root and iproute2 (network namespaces)"))
    func outageGivesDisconnectedAndAnICERestartInTheGraceRecovers() async throws {
        guard let lab = NetworkLab.makeIfPossible() else { return }
        defer { lab.tearDown() }
        var inside = ICEConfiguration()
        inside.allowedAddresses = [NetworkLab.lanAddress]
        inside.consentFailureGrace = .seconds(30)
        var outside = ICEConfiguration()
        outside.allowedAddresses = [NetworkLab.wanAddress]
        outside.consentFailureGrace = .seconds(30)
        let a = try ICEPeer(.controlling, ICETransport(configuration: inside, role: .controlling,
                                                       loop: .inNetworkNamespace(lab.path(lab.lan), name: "lan")))
        let b = try ICEPeer(.controlled, ICETransport(configuration: outside, role: .controlled,
                                                      loop: .inNetworkNamespace(lab.path(lab.wan), name: "wan")))
        let tasks = try wire(a, b)
        #expect(await eventually { a.transport.selectedPair != nil && b.transport.selectedPair != nil })
        try lab.setOutage(true)
        // Silence is reported first (a few seconds), consent expiry later (libnice's 10 s): the
        // restart below happens inside the grace that follows consent expiry.
        #expect(await eventually(within: .seconds(30)) { a.transport.transportState == .disconnected })
        #expect(await eventually(within: .seconds(30)) { a.transport.failureReason?.contains("consent") == true })
        #expect(a.transport.transportState == .disconnected)
        try lab.setOutage(false)
        // The application restarts ICE during the grace period (offer/answer by hand).
        a.forwarding.store(false, ordering: .relaxed); b.forwarding.store(false, ordering: .relaxed)
        let newA = try a.transport.restart(), newB = try b.transport.restart()
        try b.transport.setRemoteCredentials(newA)
        try a.transport.setRemoteCredentials(newB)
        for c in a.transport.localCandidates { try b.transport.addRemoteCandidate(c.candidateString) }
        for c in b.transport.localCandidates { try a.transport.addRemoteCandidate(c.candidateString) }
        try a.transport.addRemoteEndOfCandidates(); try b.transport.addRemoteEndOfCandidates()
        #expect(await eventually(within: .seconds(10)) { [.connected, .completed].contains(a.transport.transportState) })
        try a.transport.send([42])
        #expect(await eventually { b.received.withLock { $0.contains([42]) } })
        #expect(!a.saw(.failed))
        print("outage + restart trace:\n\(a.transport.trace)")
        a.transport.close(); b.transport.close()
        for t in tasks { await t.value }
    }
}
