import Foundation
import Testing
import TernCore
@testable import TernICE

/// ICE through a real coturn started by the test on loopback.
@Suite(.serialized) struct IceTurnTests {
    static func relayConfiguration(_ coturn: Coturn, transport: String) throws -> IceConfiguration {
        var c = IceConfiguration.loopback
        c.transportPolicy = .relay
        c.servers = [try IceServer(url: "turn:127.0.0.1:\(coturn.port)?transport=\(transport)", username: "u", credential: "p")]
        return c
    }

    @Test func stunServerOnLoopbackAnswersBindingRequestsDuringGathering() async throws {
        guard let coturn = try Coturn.startIfInstalled() else { return }
        defer { coturn.stop() }
        var c = IceConfiguration.loopback
        c.servers = [try IceServer(url: "stun:127.0.0.1:\(coturn.port)")]
        let t = try IceTransport(configuration: c, role: .controlling)
        try t.gather()
        #expect(await eventually { t.gatheringState == .complete })
        let types = Set(t.localCandidates.map(\.type))
        // On loopback the mapped address equals the host address, so libnice folds the srflx
        // candidate into the host one (RFC 8445 §5.1.3 redundancy); the srflx path itself is
        // proven with FakeSTUNServer below.
        #expect(types.contains(.host))
        print("STUN gather on loopback produced: \(t.localCandidates.map(\.sdp))")
        t.close()
    }

    @Test func serverReflexiveCandidateComesFromTheSTUNMappedAddress() async throws {
        let stun = try FakeSTUNServer(mapped: (ip: [203, 0, 113, 7], port: 40_000))
        defer { stun.stop() }
        var c = IceConfiguration.loopback
        c.servers = [try IceServer(url: "stun:127.0.0.1:\(stun.port)")]
        let t = try IceTransport(configuration: c, role: .controlling)
        try t.gather()
        #expect(await eventually { t.gatheringState == .complete })
        let host = try #require(t.localCandidates.first { $0.type == .host })
        let srflx = try #require(t.localCandidates.first { $0.type == .srflx })
        #expect(srflx.address == "203.0.113.7" && srflx.port == 40_000)
        #expect(srflx.relatedAddress == "127.0.0.1" && srflx.relatedPort == host.port)
        #expect(stun.requests >= 1)
        t.close()
    }

    @Test(arguments: ["udp", "tcp"])
    func relayPolicyConnectsOnlyThroughTURN(transport: String) async throws {
        guard let coturn = try Coturn.startIfInstalled() else { return }
        defer { coturn.stop() }
        let a = try IcePeer(.controlling, Self.relayConfiguration(coturn, transport: transport))
        let b = try IcePeer(.controlled, Self.relayConfiguration(coturn, transport: transport))
        let tasks = try wire(a, b)
        #expect(await eventually(within: .seconds(20)) { a.transport.selectedPair != nil && b.transport.selectedPair != nil })
        // Nothing but relay candidates is signalled under policy relay.
        let signalled = a.events.withLock { $0.compactMap { if case let .candidate(c) = $0 { c } else { nil } } }
        #expect(!signalled.isEmpty && signalled.allSatisfy { $0.type == .relay })
        let pair = try #require(a.transport.selectedPair)
        #expect(pair.local.type == .relay)
        #expect(!pair.isDirect)
        for i in 0..<10 { try a.transport.send([UInt8(i)]); try b.transport.send([UInt8(100 + i)]) }
        #expect(await eventually { b.received.withLock { $0.count } == 10 && a.received.withLock { $0.count } == 10 })
        print("TURN/\(transport) trace:\n\(a.transport.trace)")
        a.transport.close(); b.transport.close()
        for t in tasks { await t.value }
    }
}
