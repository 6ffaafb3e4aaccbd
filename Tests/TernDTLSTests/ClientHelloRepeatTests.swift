import Testing
import TernCore
@testable import TernDTLS

/// `DTLSEndpoint.repeatUnansweredClientHello`: the ClientHello sent again when ICE selects its
/// pair, for a peer that dropped the one sent on a valid pair before its own selection.
@Suite struct ClientHelloRepeatTests {
    /// The client's first flight, taken by hand (nothing on the link yet).
    private func firstFlight(_ harness: DTLSTestHarness) -> [[UInt8]] {
        harness.client.start(now: harness.now)
        harness.server.start(now: harness.now)
        var flight: [[UInt8]] = []
        while let datagram = harness.client.pollTransmit() { flight.append(datagram) }
        return flight
    }

    private func serverOutput(_ server: DTLSEndpoint) -> [[UInt8]] {
        var out: [[UInt8]] = []
        while let datagram = server.pollTransmit() { out.append(datagram) }
        return out
    }

    @Test func aServerThatDroppedTheHelloGetsTheSameBytesAndAnswers() throws {
        let harness = try DTLSTestHarness.make()
        let flight = firstFlight(harness)
        #expect(flight.count == 1 && flight[0][0] == 22, "one handshake datagram: the ClientHello")
        // The peer dropped it (its ICE had no selected pair yet); ours is selected now.
        #expect(harness.client.repeatUnansweredClientHello())
        let again = harness.client.pollTransmit()
        #expect(again == flight[0], "the same record, sequence number and all")
        #expect(harness.client.statistics.clientHelloRepeats == 1)
        #expect(!harness.client.repeatUnansweredClientHello(), "once")
        harness.server.handle(datagram: try #require(again), now: harness.now)
        #expect(!serverOutput(harness.server).isEmpty, "the server answers the repeated hello")
    }

    @Test func aServerThatGotBothAnswersOnce() throws {
        let harness = try DTLSTestHarness.make()
        let flight = firstFlight(harness)
        #expect(harness.client.repeatUnansweredClientHello())
        let again = try #require(harness.client.pollTransmit())
        harness.server.handle(datagram: flight[0], now: harness.now)
        let answer = serverOutput(harness.server)
        #expect(!answer.isEmpty)
        harness.server.handle(datagram: again, now: harness.now)
        #expect(serverOutput(harness.server).isEmpty, "the copy is a replayed record (RFC 6347 §4.1.2.6): no second flight")
        // The handshake completes from here as usual.
        for datagram in answer { harness.client.handle(datagram: datagram, now: harness.now) }
        #expect(harness.run { $0.client.state == .connected && $0.server.state == .connected })
    }

    @Test func nothingIsRepeatedOnceTheServerHasAnsweredOrForAServer() throws {
        let harness = try DTLSTestHarness.make()
        let flight = firstFlight(harness)
        harness.server.handle(datagram: flight[0], now: harness.now)
        for datagram in serverOutput(harness.server) { harness.client.handle(datagram: datagram, now: harness.now) }
        #expect(!harness.client.repeatUnansweredClientHello(), "the server's flight arrived")
        #expect(!harness.server.repeatUnansweredClientHello(), "a server sends no ClientHello")
        #expect(harness.client.statistics.clientHelloRepeats == 0)
    }
}
