import Foundation
import Testing
import TernCore
@testable import TernICE

/// Records carried in connectivity checks (`dtls-in-stun` of Tern's libnice patch,
/// ICETransport+DTLSInChecks.swift) between two real agents on loopback: what goes in, what
/// comes up, what is left out. DTLS itself is not involved here (DTLSInChecksTests is).
@Suite(.enabled(if: ICETransport.libniceCarriesDTLSInChecks || getuid() == 0,
                "libnice without Tern's patch, and not root: run Scripts/libnice as root"))
struct DTLSInChecksAgentTests {
    /// A DTLS-looking flight (content type 22, DTLS 1.2, epoch 0): the agents do not parse it.
    private func flight(_ size: Int, tag: UInt8) -> [UInt8] {
        [22, 254, 253] + [UInt8](repeating: tag, count: size - 3)
    }

    /// Slow ticks: after the first check (at once) the next ones are seconds away, so what came
    /// up came in the first check and its reply.
    private func peers() throws -> (controlling: ICEPeer, controlled: ICEPeer) {
        var configuration = ICEConfiguration.loopback
        configuration.stunPacing = .seconds(2)
        return (try ICEPeer(.controlling, configuration), try ICEPeer(.controlled, configuration))
    }

    @Test func flightsRideInTheChecksAndTheirRepliesAndComeUpWhole() async throws {
        let (controlling, controlled) = try peers()
        let hello = flight(178, tag: 1), answer = flight(640, tag: 2)
        #expect(controlled.transport.carryDTLSInChecks() && controlling.transport.carryDTLSInChecks())
        controlled.transport.carryInChecks([hello])
        controlling.transport.carryInChecks([Array(answer.prefix(300)), Array(answer.dropFirst(300))])
        let tasks = try wire(controlling, controlled)
        #expect(await eventually { controlling.received.withLock { $0.contains(hello) } }, "the check's records came up")
        #expect(await eventually { controlled.received.withLock { $0.contains(answer) } },
                "the reply's records came up, the two datagrams of the flight as one")
        #expect(controlling.transport.dtlsPayloadsReceivedInChecks >= 1 && controlled.transport.dtlsPayloadsReceivedInChecks >= 1)
        // Checks are not transport traffic (W3C): what came inside them is left out.
        #expect(controlling.transport.traffic.packetsReceived == 0 && controlled.transport.traffic.bytesReceived == 0)
        controlling.transport.close(); controlled.transport.close()
        for t in tasks { await t.value }
    }

    @Test func nothingRidesUnlessTheAgentCarries() async throws {
        let (controlling, controlled) = try peers()
        #expect(controlling.transport.acceptDTLSInChecks())
        controlled.transport.carryInChecks([flight(178, tag: 3)])   // not carrying: ignored
        let tasks = try wire(controlling, controlled)
        #expect(await eventually { controlled.transport.selectedPair != nil && controlling.transport.selectedPair != nil })
        #expect(controlling.received.withLock { $0.isEmpty } && controlling.transport.dtlsPayloadsReceivedInChecks == 0)
        controlling.transport.close(); controlled.transport.close()
        for t in tasks { await t.value }
    }

    @Test func recordsThatDoNotFitBesideALongUsernameAreLeftOutAndTheChecksStillGo() async throws {
        let (controlling, controlled) = try peers()
        // RFC 8839 §5.4 allows a 256-character ufrag: a USERNAME of 513 bytes and a 1,000-byte
        // flight are more than a check may be (1,280 bytes).
        let long = String(repeating: "u", count: 256)
        try controlling.transport.setLocalCredentials(ICECredentials(ufrag: long, pwd: String(repeating: "p", count: 32)))
        try controlled.transport.setLocalCredentials(ICECredentials(ufrag: String(repeating: "v", count: 256), pwd: String(repeating: "q", count: 32)))
        #expect(controlled.transport.carryDTLSInChecks() && controlling.transport.carryDTLSInChecks())
        controlled.transport.carryInChecks([flight(ICETransport.dtlsInChecksLimit, tag: 4)])
        controlling.transport.carryInChecks([flight(ICETransport.dtlsInChecksLimit, tag: 5)])
        let tasks = try wire(controlling, controlled)
        #expect(await eventually { controlled.transport.selectedPair != nil && controlling.transport.selectedPair != nil },
                "the checks and replies went without the records")
        #expect(controlling.transport.dtlsPayloadsReceivedInChecks == 0 && controlled.transport.dtlsPayloadsReceivedInChecks == 0)
        controlling.transport.close(); controlled.transport.close()
        for t in tasks { await t.value }
    }

    @Test func aFlightOverTheLimitIsNotCarried() async throws {
        let (controlling, controlled) = try peers()
        #expect(controlled.transport.carryDTLSInChecks() && controlling.transport.carryDTLSInChecks())
        controlled.transport.carryInChecks([flight(ICETransport.dtlsInChecksLimit + 1, tag: 6)])
        let tasks = try wire(controlling, controlled)
        #expect(await eventually { controlled.transport.selectedPair != nil })
        #expect(controlling.transport.dtlsPayloadsReceivedInChecks == 0)
        controlling.transport.close(); controlled.transport.close()
        for t in tasks { await t.value }
    }
}
