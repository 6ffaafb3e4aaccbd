import Testing
import TernCore
@testable import TernSCTP

/// ACK thinning (`sackEveryPackets`, `thinnedSackDelay`) and the slow-start byte-counting limit
/// that goes with it (`slowStartPacketsPerSack`), as a peer connection sets them towards a Tern
/// peer (Docs/SCTP.md "ACK thinning").
@Suite struct SackThinningTests {
    private static func config(seed: UInt64, thinned: Bool) -> SCTPAssociationConfig {
        var config = SCTPAssociationConfig.testDefault(seed: seed)
        if thinned {
            config.sackEveryPackets = 4
            config.slowStartPacketsPerSack = 4
        }
        return config
    }

    /// DATA packets a sent and SACK packets b sent while `bytes` cross a 25 ms link.
    private static func transfer(thinned: Bool, bytes: Int) throws -> (data: Int, sacks: Int, elapsed: Duration) {
        let h = AssociationHarness(configA: config(seed: 11, thinned: thinned), configB: config(seed: 22, thinned: thinned),
                                   conditions: .init(delay: .milliseconds(25)))
        #expect(h.connect())
        var data = 0, sacks = 0
        h.pair.deliverFilter = { to, datagram in
            guard let packet = try? SCTPPacket.parse(datagram, verifyChecksum: false) else { return true }
            for chunk in packet.chunks {
                switch (chunk, to) {
                case (.data, .b): data += 1
                case (.sack, .a): sacks += 1
                default: continue
                }
                break
            }
            return true
        }
        let message = [UInt8](repeating: 7, count: 16 * 1024)
        let count = bytes / message.count
        for _ in 0..<count { try h.a.send(message, streamIdentifier: 0, payloadProtocolIdentifier: 53, now: h.pair.now) }
        let start = h.pair.now
        #expect(h.pair.run(for: .seconds(120)) { h.messagesB.count == count })
        return (data, sacks, h.pair.now - start)
    }

    @Test func aThinnedReceiverSendsAboutOneSackPerFourPacketsAndSlowStartKeepsItsPace() throws {
        let regular = try Self.transfer(thinned: false, bytes: 4 * 1024 * 1024)
        let thinned = try Self.transfer(thinned: true, bytes: 4 * 1024 * 1024)
        let regularRatio = Double(regular.sacks) / Double(regular.data)
        let thinnedRatio = Double(thinned.sacks) / Double(thinned.data)
        #expect(regularRatio > 0.45 && regularRatio <= 0.55, "every second packet: \(regular)")
        #expect(thinnedRatio > 0.22 && thinnedRatio <= 0.3, "every fourth packet: \(thinned)")
        // Counting four packets per SACK, slow start ramps as fast as with twice the SACKs
        // (virtual time on a loss-free 50 ms round trip).
        #expect(thinned.elapsed <= regular.elapsed + .milliseconds(50), "\(thinned.elapsed) vs \(regular.elapsed)")
    }

    @Test func twoPacketsAreAcknowledgedWithinTheShortDelayNotTheDelayedAckTimeout() throws {
        let h = AssociationHarness(configA: Self.config(seed: 1, thinned: true), configB: Self.config(seed: 2, thinned: true),
                                   conditions: .init(delay: .milliseconds(1)))
        #expect(h.connect())
        // 2,000 bytes: two DATA packets of the 1,200-byte base size, then nothing more.
        try h.a.send([UInt8](repeating: 1, count: 2_000), streamIdentifier: 0, payloadProtocolIdentifier: 53, now: h.pair.now)
        let start = h.pair.now
        #expect(h.pair.run(for: .seconds(1)) { h.a.congestion.bytesInFlight == 0 && !h.messagesB.isEmpty })
        // 1 ms there, at most 2 ms held, 1 ms back — not the 100 ms delayed-ack timeout.
        #expect(h.pair.now - start <= .milliseconds(5), "acknowledged after \(h.pair.now - start)")
    }
}
