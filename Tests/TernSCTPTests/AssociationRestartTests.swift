import Testing
import TernCore
@testable import TernSCTP
import TernTestSupport

@Suite struct AssociationRestartTests {
    /// RFC 9260 §5.2.4 action A: one side loses its state and connects again; the other side
    /// accepts the new INIT/COOKIE ECHO, reports `.restarted`, and data flows again.
    @Test func peerRestartIsAcceptedAndDataFlowsAgain() throws {
        let h = AssociationHarness()
        #expect(h.connect())
        try h.a.send([1], streamIdentifier: 0, payloadProtocolIdentifier: 53, now: h.pair.now)
        #expect(h.pair.run(for: .seconds(5)) { h.messagesB.count == 1 })

        // Replace b by a fresh association (same ports) that connects again.
        let restarted = AssociationHarness(configA: .testDefault(seed: 33), configB: .testDefault(seed: 44))
        let fresh = restarted.b
        var link = SimulatedLink()
        var now = h.pair.now
        fresh.connect(now: now)
        var messages: [SCTPMessage] = []
        var eventsA: [SCTPAssociationEvent] = []
        var sentAfterRestart = false
        for _ in 0..<2000 {
            while let p = h.a.pollTransmit(now: now) { link.send(from: .a, datagram: p, at: now) }
            while let p = fresh.pollTransmit(now: now) { link.send(from: .b, datagram: p, at: now) }
            guard let next = [link.nextDeliveryTime, h.a.nextTimeout, fresh.nextTimeout].compactMap({ $0 }).min() else { break }
            now = max(now, next)
            for d in link.deliverDue(at: now) {
                (d.to == .a ? h.a : fresh).handle(packet: d.datagram, now: now)
            }
            if let t = h.a.nextTimeout, t <= now { h.a.handleTimeout(now: now) }
            if let t = fresh.nextTimeout, t <= now { fresh.handleTimeout(now: now) }
            while let e = h.a.pollEvent() { eventsA.append(e) }
            while let e = fresh.pollEvent() { if case let .message(m) = e { messages.append(m) } }
            if fresh.state == .established, eventsA.contains(.restarted), !sentAfterRestart {
                try h.a.send([2], streamIdentifier: 0, payloadProtocolIdentifier: 53, now: now)
                sentAfterRestart = true
            }
            if !messages.isEmpty { break }
        }
        #expect(eventsA.contains(.restarted))
        #expect(messages.first?.payload == [2])
    }

    @Test func gracefulShutdownClosesBothSides() throws {
        let h = AssociationHarness()
        #expect(h.connect())
        try h.a.send([UInt8](repeating: 9, count: 5000), streamIdentifier: 0, payloadProtocolIdentifier: 53, now: h.pair.now)
        h.a.shutdown(now: h.pair.now)
        #expect(h.pair.run(for: .seconds(10)) { h.a.state == .closed && h.b.state == .closed })
        #expect(h.messagesB.count == 1)
        #expect(h.eventsA.contains(.closed(.shutdown)) && h.eventsB.contains(.closed(.shutdown)))
    }
}
