import Testing
import TernCore
@testable import TernSCTP

@Suite struct AssociationHandshakeTests {
    @Test func simultaneousOpenEstablishesBothSides() {
        let h = AssociationHarness()
        #expect(h.connect())
        #expect(h.eventsA.contains(.connected))
        #expect(h.eventsB.contains(.connected))
        #expect(h.a.outboundStreamCount == 65535)
    }

    @Test func oneSidedOpenEstablishes() {
        let h = AssociationHarness()
        h.a.connect(now: .zero)
        #expect(h.pair.run(for: .seconds(10)) { h.a.state == .established && h.b.state == .established })
    }

    @Test func smallMessageArrivesIntact() throws {
        let h = AssociationHarness()
        #expect(h.connect())
        try h.a.send(Array("hello".utf8), streamIdentifier: 1, payloadProtocolIdentifier: 51, now: h.pair.now)
        #expect(h.pair.run(for: .seconds(5)) { h.messagesB.count == 1 })
        #expect(h.messagesB.first == SCTPMessage(streamIdentifier: 1, payloadProtocolIdentifier: 51, payload: Array("hello".utf8)))
    }

    @Test func initIsRetransmittedWhenLost() {
        let h = AssociationHarness()
        var dropped = 0
        h.pair.deliverFilter = { _, _ in
            dropped += 1
            return dropped > 2
        }
        h.a.connect(now: .zero)
        #expect(h.pair.run(for: .seconds(30)) { h.a.state == .established && h.b.state == .established })
    }

    @Test func handshakeTimesOutWithoutPeer() {
        let h = AssociationHarness()
        h.pair.deliverFilter = { _, _ in false }
        h.a.connect(now: .zero)
        #expect(h.pair.run(for: .seconds(3600)) { h.a.state == .closed })
        #expect(h.eventsA.contains(.closed(.handshakeTimeout)))
    }
}
