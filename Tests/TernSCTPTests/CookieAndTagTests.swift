import Testing
import TernCore
@testable import TernSCTP

/// RFC 9260's defences at the door: a COOKIE ECHO we did not sign, one that expired (§5.1.5,
/// answered with a Stale Cookie ERROR that makes the peer start over, §5.2.6), and packets
/// whose verification tag is not the association's (§8.5).
@Suite struct CookieAndTagTests {
    @Test func aForgedCookieEchoCreatesNoAssociationAndIsCounted() throws {
        let listener = SCTPAssociation(config: .testDefault(seed: 3))
        // Right size and version, but signed with some other key (or none at all).
        var forged = [UInt8](repeating: 0xA5, count: StateCookie.size)
        forged[0] = 1
        let config = SCTPAssociationConfig.testDefault(seed: 4)
        let packet = SCTPPacket(sourcePort: config.localPort, destinationPort: config.remotePort,
                                verificationTag: 0xA5A5_A5A5, chunks: [.cookieEcho(forged)])
        listener.handle(packet: packet.serialize(), now: .zero)
        #expect(listener.state == .closed)
        #expect(listener.stats.rejectedCookies == 1)
        #expect(listener.pollTransmit(now: .zero) == nil, "no COOKIE ACK, no ERROR")
        #expect(listener.pollEvent() == nil)
    }

    /// a's handshake with b over a link taking `oneWay` each way, b's cookies living `lifetime`;
    /// counts the Stale Cookie ERRORs that reach a.
    private static func handshake(oneWay: Duration, lifetime: Duration) -> (AssociationHarness, () -> Int) {
        var initiator = SCTPAssociationConfig.testDefault(seed: 6)
        initiator.maxInitRetransmissions = 3
        var listener = SCTPAssociationConfig.testDefault(seed: 5)
        listener.cookieLifetime = lifetime
        let h = AssociationHarness(configA: initiator, configB: listener, conditions: .init(delay: oneWay))
        var errorsToA = 0
        h.pair.deliverFilter = { to, datagram in
            if to == .a, let packet = try? SCTPPacket.parse(datagram, verifyChecksum: false),
               packet.chunks.contains(where: {
                   if case let .error(causes) = $0 { causes.contains { $0.code == SCTPErrorCause.staleCookie } } else { false }
               }) {
                errorsToA += 1
            }
            return true
        }
        h.a.connect(now: h.pair.now)  // b only listens
        return (h, { errorsToA })
    }

    @Test func aStaleCookieIsAnsweredWithAnErrorAndThePeerStartsOverThenGivesUp() throws {
        // 100 ms each way: a's COOKIE ECHO arrives 200 ms after b signed the cookie, which
        // lived 50 ms. Every new cookie is stale too, so a starts over until Max.Init.Retransmits.
        let (h, errorsToA) = Self.handshake(oneWay: .milliseconds(100), lifetime: .milliseconds(50))
        #expect(h.pair.run(for: .seconds(10)) { h.eventsA.contains(.closed(.handshakeTimeout)) })
        #expect(h.a.stats.staleCookieRestarts == 3)
        #expect(errorsToA() == 4, "one ERROR per stale COOKIE ECHO")
        #expect(h.b.stats.rejectedCookies == 4)
        #expect(h.b.state == .closed)
    }

    @Test func withALifetimeLongerThanTheRoundTripTheSameHandshakeConnects() throws {
        let (h, errorsToA) = Self.handshake(oneWay: .milliseconds(100), lifetime: .seconds(1))
        #expect(h.pair.run(for: .seconds(10)) { h.a.state == .established && h.b.state == .established })
        #expect(errorsToA() == 0 && h.b.stats.rejectedCookies == 0)
    }

    @Test func dataWithTheWrongVerificationTagIsDroppedAndCounted() throws {
        let h = AssociationHarness()
        #expect(h.connect())
        try h.a.send([1, 2, 3], streamIdentifier: 0, payloadProtocolIdentifier: 53, now: h.pair.now)
        let genuine = try SCTPPacket.parse(try #require(h.a.pollTransmit(now: h.pair.now)))
        let forged = genuine.with(chunks: genuine.chunks, verificationTag: genuine.verificationTag &+ 1)
        let before = h.b.stats.badVerificationTag
        h.b.handle(packet: forged.serialize(), now: h.pair.now)
        h.drain()
        #expect(h.b.stats.badVerificationTag == before + 1)
        #expect(h.messagesB.isEmpty, "nothing delivered from a packet with another association's tag")
        // The genuine packet still gets through afterwards.
        h.b.handle(packet: genuine.serialize(), now: h.pair.now)
        h.drain()
        #expect(h.messagesB.map(\.payload) == [[1, 2, 3]])
    }
    @Test func dataBundledAfterAForgedCookieEchoIsDiscardedWithIt() throws {
        // A COOKIE ECHO exempts its packet from the verification-tag check (§8.5.1), so what
        // follows a forged one must not be taken on the strength of it (§5.1.5).
        let h = AssociationHarness()
        #expect(h.connect())
        try h.a.send([9, 9, 9], streamIdentifier: 0, payloadProtocolIdentifier: 53, now: h.pair.now)
        let genuine = try SCTPPacket.parse(try #require(h.a.pollTransmit(now: h.pair.now)))
        let smuggled = genuine.with(chunks: [.cookieEcho([UInt8](repeating: 0x42, count: 64))] + genuine.chunks,
                                    verificationTag: genuine.verificationTag &+ 7)
        let rejected = h.b.stats.rejectedCookies
        h.b.handle(packet: smuggled.serialize(), now: h.pair.now)
        h.drain()
        #expect(h.b.stats.rejectedCookies == rejected + 1)
        #expect(h.messagesB.isEmpty, "the DATA behind the forged cookie was not delivered")
        h.b.handle(packet: genuine.serialize(), now: h.pair.now)
        h.drain()
        #expect(h.messagesB.map(\.payload) == [[9, 9, 9]])
    }
    @Test func anOversizedHeartbeatIsNotEchoedBeyondThePacketSizeAndTheAssociationGoesOn() throws {
        let h = AssociationHarness()
        #expect(h.connect())
        var largest = 0   // the largest packet b sent with a HEARTBEAT ACK in it
        h.pair.deliverFilter = { to, bytes in
            if to == .a, let packet = try? SCTPPacket.parse(bytes, verifyChecksum: false),
               packet.chunks.contains(where: { if case .heartbeatAck = $0 { true } else { false } }) {
                largest = max(largest, bytes.count)
            }
            return true
        }
        try h.a.send([1], streamIdentifier: 0, payloadProtocolIdentifier: 53, now: h.pair.now)
        let template = try SCTPPacket.parse(try #require(h.a.pollTransmit(now: h.pair.now)))
        let heartbeat = template.with(chunks: [.heartbeat([.heartbeatInfo([UInt8](repeating: 7, count: 8_000))])])
        h.b.handle(packet: heartbeat.serialize(), now: h.pair.now)
        h.b.handle(packet: template.serialize(), now: h.pair.now)
        #expect(h.pair.run(for: .seconds(1)) { h.messagesB.count == 1 })
        #expect(h.b.stats.oversizedControlChunksDropped == 1)
        #expect(largest == 0, "no HEARTBEAT ACK went back (it could not fit): \(largest)")
        #expect(h.b.state == .established)
    }
}
