import Synchronization
import Testing
import TernSDP
@testable import TernPeer

/// SNAP between peer connections (draft-hancke-tsvwg-snap): offered by default, used when the
/// answer carries its own `a=sctp-init`, and a clean fallback to the SCTP handshake when not.
@Suite struct SNAPNegotiationTests {
    /// SCTP chunk types seen in decrypted SCTP packets, both directions.
    final class ChunkLog: Sendable {
        let types = Mutex<Set<UInt8>>([])
        func record(_ packet: TappedPacket) {
            guard packet.kind == .sctp else { return }
            var offset = 12
            let bytes = packet.bytes
            types.withLock { types in
                while offset + 4 <= bytes.count {
                    types.insert(bytes[offset])
                    let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
                    guard length >= 4 else { break }
                    offset += (length + 3) & ~3
                }
            }
        }
        var sawHandshake: Bool { types.withLock { !$0.isDisjoint(with: [1, 2, 10, 11]) } }   // INIT, INIT ACK, COOKIE ECHO/ACK
    }

    private func openChannel(caller: PeerConfiguration, callee: PeerConfiguration) async throws -> (PeerPair, DataChannel, [Task<Void, Never>]) {
        let pair = PeerPair(caller: try PeerConnection(configuration: caller), callee: try PeerConnection(configuration: callee))
        let tasks = pair.startTrickle()
        let channel = try pair.caller.createDataChannel("snap")
        try await pair.negotiate()
        #expect(await eventually { channel.readyState == .open }, "\(pair.diagnosis)")
        return (pair, channel, tasks)
    }

    private func withoutHandshake(_ peer: PeerConnection) -> Bool {
        peer.getStats().sctpTransport?.establishedWithoutHandshake == true
    }

    @Test func twoTernPeersSkipTheSCTPHandshake() async throws {
        let log = ChunkLog()
        var config = PeerConfiguration.loopback
        config.packetTap = { log.record($0) }
        let (pair, _, tasks) = try await openChannel(caller: config, callee: .loopback)
        defer { pair.close(); tasks.forEach { $0.cancel() } }
        #expect(pair.caller.localDescription?.sdp.contains("a=sctp-init:") == true)
        #expect(pair.callee.localDescription?.sdp.contains("a=sctp-init:") == true, "the answer carries one back")
        // The caller's channel opens when its own association is up; the callee's DTLS may finish
        // a moment later, so its association is waited for rather than read at once.
        #expect(await eventually { withoutHandshake(pair.caller) && withoutHandshake(pair.callee) }, "\(pair.diagnosis)")
        #expect(!log.sawHandshake, "no INIT, INIT ACK, COOKIE ECHO or COOKIE ACK on the wire")
    }

    @Test func aPeerWithoutSNAPAnswersWithoutItAndTheHandshakeRuns() async throws {
        let log = ChunkLog()
        var caller = PeerConfiguration.loopback
        caller.packetTap = { log.record($0) }
        var callee = PeerConfiguration.loopback
        callee.negotiatesSNAP = false
        let (pair, _, tasks) = try await openChannel(caller: caller, callee: callee)
        defer { pair.close(); tasks.forEach { $0.cancel() } }
        #expect(pair.caller.localDescription?.sdp.contains("a=sctp-init:") == true)
        #expect(pair.callee.localDescription?.sdp.contains("a=sctp-init") == false, "not answered by a peer that does not use it")
        // Both associations up (through the handshake) before reading how they came up.
        #expect(await eventually { pair.caller.getStats().sctpTransport != nil && pair.callee.getStats().sctpTransport != nil })
        #expect(!withoutHandshake(pair.caller) && !withoutHandshake(pair.callee))
        #expect(log.sawHandshake)
    }

    @Test func anOfferWhoseSCTPInitIsNotAnInitIsRefused() async throws {
        let offerer = try PeerConnection(configuration: .loopback)
        let answerer = try PeerConnection(configuration: .loopback)
        defer { offerer.close(); answerer.close() }
        _ = try offerer.createDataChannel("x")
        let offer = try await offerer.createOffer()
        let lines = offer.sdp.components(separatedBy: "\r\n").map { $0.hasPrefix("a=sctp-init:") ? "a=sctp-init:%%%notbase64" : $0 }
        await #expect(throws: PeerConnectionError.self) {
            try await answerer.setRemoteDescription(JSEPDescription(type: .offer, sdp: lines.joined(separator: "\r\n")))
        }
        let notAnInit = offer.sdp.components(separatedBy: "\r\n").map { $0.hasPrefix("a=sctp-init:") ? "a=sctp-init:AwAAFAAAAAEAAAABAAEAAQAAAAE=" : $0 }
        await #expect(throws: PeerConnectionError.self) {
            try await answerer.setRemoteDescription(JSEPDescription(type: .offer, sdp: notAnInit.joined(separator: "\r\n")))
        }
    }
}
