import Testing
import TernCore
@testable import TernSCTP

/// Max.Burst (RFC 9260 §6.1 D) and pacing (`Pacer`): a sender whose window is wide open must not
/// release it at once, since the peer's UDP socket (a browser's holds ~55 packets) sits in front
/// of the peer's SCTP stack and drops what overflows it.
@Suite struct BurstAndPacingTests {
    private static func config(seed: UInt64, initialWindow: Int? = nil, pacing: Bool = true, maxBurst: Int = 4) -> SCTPAssociationConfig {
        var config = SCTPAssociationConfig.testDefault(seed: seed)
        config.initialCongestionWindow = initialWindow
        config.pacing = pacing
        config.maxBurst = maxBurst
        return config
    }

    private static func isData(_ datagram: [UInt8]) -> Bool {
        guard let packet = try? SCTPPacket.parse(datagram, verifyChecksum: false) else { return false }
        return packet.chunks.contains { if case .data = $0 { true } else { false } }
    }

    @Test func aWideOpenWindowReleasesMaxBurstPacketsNotTheWholeMessage() throws {
        let h = AssociationHarness(configA: Self.config(seed: 1, initialWindow: 1 << 20), configB: Self.config(seed: 2),
                                   conditions: .init(delay: .milliseconds(10)))
        #expect(h.connect())
        // 256 KiB: ~220 packets of the base size, all inside a 1 MiB window.
        try h.a.send([UInt8](repeating: 3, count: 256 * 1024), streamIdentifier: 0, payloadProtocolIdentifier: 53, now: h.pair.now)
        var burst = 0
        while let packet = h.a.pollTransmit(now: h.pair.now) { if Self.isData(packet) { burst += 1 } }
        #expect(burst == 4)
        #expect(h.a.congestion.bytesInFlight <= 4 * 1200)
    }

    @Test func eachReceivedPacketLetsAtMostMaxBurstMoreOut() throws {
        let h = AssociationHarness(configA: Self.config(seed: 3, initialWindow: 1 << 20, pacing: false), configB: Self.config(seed: 4),
                                   conditions: .init(delay: .milliseconds(10)))
        #expect(h.connect())
        var sentPerInstant: [Int64: Int] = [:]
        h.pair.deliverFilter = { [unowned h] to, datagram in
            if to == .b, Self.isData(datagram) { sentPerInstant[h.pair.now.nanoseconds, default: 0] += 1 }
            return true
        }
        try h.a.send([UInt8](repeating: 3, count: 200 * 1024), streamIdentifier: 0, payloadProtocolIdentifier: 53, now: h.pair.now)
        #expect(h.pair.run(for: .seconds(30)) { h.messagesB.count == 1 })
        // b SACKs every second packet, each SACK arrives alone: at most Max.Burst packets follow it.
        #expect((sentPerInstant.values.max() ?? 0) <= 4, "largest burst \(sentPerInstant.values.max() ?? 0)")
    }

    @Test func pacingSpreadsAWindowOverTheRoundTripWithoutSlowingTheTransfer() throws {
        // The link hands b packets in groups (as a receiver that reads its socket in batches
        // would): each group's SACKs reach a at one instant. Unpaced, a answers each of them with
        // Max.Burst packets, back to back; paced, the bucket lets Max.Burst out per instant.
        func run(pacing: Bool) throws -> (largestBurst: Int, elapsed: Duration) {
            let h = AssociationHarness(configA: Self.config(seed: 5, pacing: pacing), configB: Self.config(seed: 6),
                                       conditions: .init(delay: .milliseconds(25)))
            #expect(h.connect())
            var perInstant: [Int64: Int] = [:]
            h.pair.deliverFilter = { [unowned h] to, datagram in
                if to == .b, Self.isData(datagram) { perInstant[h.pair.now.nanoseconds, default: 0] += 1 }
                return true
            }
            let message = [UInt8](repeating: 9, count: 16 * 1024)
            for _ in 0..<256 { try h.a.send(message, streamIdentifier: 0, payloadProtocolIdentifier: 53, now: h.pair.now) }
            let start = h.pair.now
            #expect(h.pair.run(for: .seconds(60)) { h.messagesB.count == 256 })
            return (perInstant.values.max() ?? 0, h.pair.now - start)
        }
        let unpaced = try run(pacing: false)
        let paced = try run(pacing: true)
        #expect(paced.largestBurst <= 4, "paced: \(paced)")
        #expect(paced.elapsed <= unpaced.elapsed * 11 / 10, "paced \(paced.elapsed) vs unpaced \(unpaced.elapsed)")
    }

    @Test("a send rate limit holds a bulk transfer to its rate, paced or not, and the window stops growing under it",
          arguments: [true, false])
    func aSendRateLimitHoldsDataToItsRate(pacing: Bool) throws {
        let h = AssociationHarness(configA: Self.config(seed: 7, pacing: pacing, maxBurst: pacing ? 4 : 1 << 20),
                                   configB: Self.config(seed: 8), conditions: .init(delay: .milliseconds(25)))
        #expect(h.connect())
        h.a.setPathPacketLimit(1_200)  // an Ethernet path, as the peer connection sets it
        let limit = 50_000.0  // bytes per second: 400 kbit/s
        h.a.sendRateLimit = limit
        var dataBytes = 0
        h.pair.deliverFilter = { to, datagram in
            if to == .b, Self.isData(datagram) { dataBytes += datagram.count }
            return true
        }
        let message = [UInt8](repeating: 5, count: 16 * 1024)
        for _ in 0..<64 { try h.a.send(message, streamIdentifier: 0, payloadProtocolIdentifier: 53, now: h.pair.now) }
        let windowBefore = h.a.congestion.congestionWindow
        h.pair.run(for: .seconds(4)) { false }
        // 4 s at the limit, plus the bucket (one packet) and a packet: never more; and most of it used.
        #expect(Double(dataBytes) <= limit * 4 + 2 * 1_200, "\(dataBytes) bytes in 4 s under \(Int(limit)) B/s")
        #expect(Double(dataBytes) >= limit * 4 * 0.8, "\(dataBytes) bytes in 4 s under \(Int(limit)) B/s")
        // What the limit keeps in flight is 2,500 bytes (50 ms at 50 kB/s): the window grows only
        // while a packet more would fill it (§7.2.1), so it stays a few packets above that.
        #expect(h.a.congestion.congestionWindow <= 8 * 1_200,
                "cwnd \(h.a.congestion.congestionWindow) (was \(windowBefore)): held by the limit, not by the window")
        // Lifted: the transfer finishes at the window's pace.
        h.a.sendRateLimit = nil
        #expect(h.pair.run(for: .seconds(30)) { h.messagesB.count == 64 })
    }

    @Test func aReceiverThatThinsItsSacksStillGetsTwoPacketsPerPacketAcknowledged() {
        var config = SCTPAssociationConfig()
        config.sackEveryPackets = 8
        #expect(config.effectiveMaxBurst == 16)
        config.sackEveryPackets = 2
        #expect(config.effectiveMaxBurst == 4)
    }
}

/// The token bucket on its own, in virtual time.
@Suite struct PacerTests {
    private func at(_ microseconds: Int64) -> Instant { Instant(nanoseconds: microseconds * 1_000) }

    @Test func theBucketStartsFullRefillsAtTheRateAndNeverBeyondItsDepth() {
        var pacer = Pacer()
        let rate = 1_000_000.0  // 1 MB/s: 1 byte per microsecond
        pacer.refill(now: at(0), bytesPerSecond: rate, depth: 4_800)
        #expect(pacer.mayRelease)
        for _ in 0..<4 { pacer.charge(1_200) }
        #expect(!pacer.mayRelease)
        // Empty: the next byte is earned one microsecond later.
        #expect(pacer.nextRelease(bytesPerSecond: rate) == at(1))
        pacer.refill(now: at(600), bytesPerSecond: rate, depth: 4_800)
        #expect(pacer.mayRelease)
        pacer.charge(1_200)  // 600 earned, 1,200 spent: 600 owed
        #expect(pacer.nextRelease(bytesPerSecond: rate) == at(1_201))
        // An hour idle at a high rate fills the bucket to its depth and no further (no overflow).
        pacer.refill(now: at(3_600_000_000), bytesPerSecond: 1e12, depth: 4_800)
        for _ in 0..<4 { pacer.charge(1_200) }
        #expect(!pacer.mayRelease)
    }
}
