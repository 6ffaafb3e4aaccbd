import Testing
import TernCore
@testable import TernSCTP
import TernTestSupport

/// RFC 9260 §5.1 step C: DATA may travel in the COOKIE ECHO's packet. A channel created before
/// the connection has its DATA_CHANNEL_OPEN there, so the remote channel opens with the
/// handshake's third leg instead of a round trip after COOKIE ACK.
@Suite struct CookieEchoBundlingTests {
    static let oneWay = Duration.milliseconds(25)

    private static func kinds(_ bytes: [UInt8]) -> [String] {
        guard let packet = try? SCTPPacket.parse(bytes) else { return [] }
        return packet.chunks.map { chunk in
            switch chunk {
            case .cookieEcho: "COOKIE ECHO"
            case .data: "DATA"
            default: "other"
            }
        }
    }

    @Test func anOpenQueuedBeforeTheHandshakeRidesInTheCookieEchoPacket() throws {
        let h = DataChannelHarness(conditions: .init(delay: Self.oneWay))
        var cookiePackets: [[String]] = []
        h.pair.deliverFilter = { to, bytes in
            let kinds = Self.kinds(bytes)
            if to == .b, kinds.first == "COOKIE ECHO" { cookiePackets.append(kinds) }
            return true
        }
        let id = try h.a.createDataChannel(label: "early", now: h.now)
        #expect(h.connect())
        #expect(cookiePackets.first == ["COOKIE ECHO", "DATA"])
        #expect(h.a.association.stats.dataChunksBundledWithCookieEcho == 1)
        #expect(h.pair.run(for: .seconds(5)) { h.opened(h.eventsB).contains { $0.id == id } })
    }

    @Test func theRemoteChannelOpensAtOneAndAHalfRoundTrips() throws {
        // Both sides send INIT at 0 (WebRTC's simultaneous open): INIT ACKs arrive at 1 RTT, the
        // COOKIE ECHO with the OPEN at 1.5 RTT. Without bundling the OPEN left after COOKIE ACK
        // (2 RTT) and arrived at 2.5 RTT.
        let h = DataChannelHarness(conditions: .init(delay: Self.oneWay))
        let start = h.now
        let id = try h.a.createDataChannel(label: "early", now: h.now)
        h.a.connect(now: h.now)
        h.b.connect(now: h.now)
        #expect(h.pair.run(for: .seconds(5)) { h.opened(h.eventsB).contains { $0.id == id } })
        #expect(h.now - start <= Self.oneWay * 3 + .milliseconds(5))
        // The opener reports open once the association is up, W3C's rule for it.
        #expect(h.opened(h.eventsA).contains { $0.id == id })
    }

    @Test func messagesAfterABundledOpenArriveWhenBothSidesSentInit() throws {
        // In the INIT collision each side also gets the other's COOKIE ECHO while its own is out;
        // the TSNs of our bundled DATA must not be handed out again then.
        let h = DataChannelHarness(conditions: .init(delay: Self.oneWay))
        let id = try h.a.createDataChannel(label: "early", now: h.now)
        #expect(h.connect())
        #expect(h.pair.run(for: .seconds(5)) { h.opened(h.eventsA).contains { $0.id == id } })
        let sent = (0..<20).map { DataChannelMessage.binary([UInt8](repeating: UInt8($0), count: 3_000)) }
        for message in sent { try h.a.send(message, channel: id, now: h.now) }
        #expect(h.pair.run(for: .seconds(10)) { h.messages(h.eventsB, on: id).count == sent.count })
        // Compared by a digest, so that a failure does not print 60 kB of payload.
        let digest = { (messages: [DataChannelMessage]) in
            messages.map { message -> [Int] in
                guard case let .binary(bytes) = message else { return [-1] }
                return [bytes.count, Int(bytes.first ?? 0)]
            }
        }
        #expect(digest(h.messages(h.eventsB, on: id)) == digest(sent))
        #expect(h.b.association.stats.duplicateDataChunks == 0)
    }

    @Test func dataLostWithTheCookieEchoIsResentWithIt() throws {
        let h = DataChannelHarness(conditions: .init(delay: Self.oneWay))
        var dropped = 0
        h.pair.deliverFilter = { to, bytes in
            if to == .b, Self.kinds(bytes).first == "COOKIE ECHO", dropped == 0 {
                dropped += 1
                return false
            }
            return true
        }
        let id = try h.a.createDataChannel(label: "early", now: h.now)
        h.a.connect(now: h.now)  // only a sends INIT, so b has no COOKIE ECHO of its own to answer
        #expect(h.pair.run(for: .seconds(30)) {
            h.opened(h.eventsB).contains { $0.id == id } && h.opened(h.eventsA).contains { $0.id == id }
        })
        #expect(dropped == 1)
        #expect(h.a.association.stats.retransmittedChunks >= 1)
        try h.a.send(.string("after"), channel: id, now: h.now)
        #expect(h.pair.run(for: .seconds(5)) { h.messages(h.eventsB, on: id) == [.string("after")] })
    }

    @Test func aChannelClosedBeforeTheHandshakeIsClosedOnBothSidesOnceUp() throws {
        let h = DataChannelHarness(conditions: .init(delay: Self.oneWay))
        let id = try h.a.createDataChannel(label: "brief", now: h.now)
        h.a.close(channel: id, now: h.now)
        #expect(h.connect())
        #expect(h.pair.run(for: .seconds(5)) {
            h.closed(h.eventsA).contains { $0.0 == id } && h.closed(h.eventsB).contains { $0.0 == id }
        })
        #expect(!h.opened(h.eventsA).contains { $0.id == id })
    }

    @Test func withSNAPTheQueuedOpenLeavesAsDTLSCompletes() throws {
        let h = DataChannelHarness(conditions: .init(delay: Self.oneWay), snap: true)
        let start = h.now
        let id = try h.a.createDataChannel(label: "early", now: h.now)
        h.a.connect(now: h.now)
        h.b.connect(now: h.now)
        #expect(h.pair.run(for: .seconds(5)) { h.opened(h.eventsB).contains { $0.id == id } })
        #expect(h.now - start <= Self.oneWay + .milliseconds(5))
    }
}
