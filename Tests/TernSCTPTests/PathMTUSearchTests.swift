import Testing
import TernCore
@testable import TernSCTP

/// RFC 8899 DPLPMTUD's search as the association runs it: candidates largest first, three
/// probes each, the first acknowledged one wins, black holes fall back to the base size.
@Suite struct PathMTUSearchTests {
    static func search() -> PathMTUSearch {
        var search = PathMTUSearch(basePacketSize: 1200, maximumPacketSize: 16_384, probeTimeout: .seconds(1))
        search.start()
        return search
    }

    @Test func candidatesAreProbedLargestFirstThreeTimesEach() {
        var search = Self.search()
        var now = Instant.zero
        var probed: [Int] = []
        while let size = search.probeToSend(now: now, nonce: 7) {
            probed.append(size)
            now += .seconds(1)
            search.probeTimedOut(now: now)
        }
        #expect(probed == [16_384, 16_384, 16_384, 8_912, 8_912, 8_912, 1_412, 1_412, 1_412])
        #expect(search.state == .complete)
        #expect(search.packetSize == 1200, "nothing was acknowledged: the base size stays")
    }

    @Test func theFirstAcknowledgedCandidateIsTheResult() {
        var search = Self.search()
        var now = Instant.zero
        for _ in 0..<3 {
            _ = search.probeToSend(now: now, nonce: 1)
            now += .seconds(1)
            search.probeTimedOut(now: now)
        }
        #expect(search.probeToSend(now: now, nonce: 42) == 8_912)
        search.probeAcknowledged(nonce: 41)
        #expect(search.packetSize == 1200, "another probe's nonce is ignored")
        search.probeAcknowledged(nonce: 42)
        #expect(search.packetSize == 8_912)
        #expect(search.state == .complete)
        #expect(search.probeToSend(now: now, nonce: 43) == nil)
    }

    @Test func noSecondProbeWhileOneIsInFlight() {
        var search = Self.search()
        let start = Instant.zero
        #expect(search.probeToSend(now: start, nonce: 1) == 16_384)
        #expect(search.probeToSend(now: start + .milliseconds(500), nonce: 2) == nil)
        search.probeTimedOut(now: start + .milliseconds(500))  // not yet due
        #expect(search.probeToSend(now: start + .milliseconds(600), nonce: 3) == nil)
        search.probeTimedOut(now: start + .seconds(1))
        #expect(search.probeToSend(now: start + .seconds(1), nonce: 4) == 16_384)
    }

    @Test func aBlackHoleFallsBackToTheBaseSizeAndSearchesAgain() {
        var search = Self.search()
        _ = search.probeToSend(now: .zero, nonce: 5)
        search.probeAcknowledged(nonce: 5)
        #expect(search.packetSize == 16_384)
        search.blackHoleSuspected()
        #expect(search.packetSize == 1200)
        #expect(search.state == .searching)
        #expect(search.probeToSend(now: Instant.zero + .seconds(2), nonce: 6) == 16_384)
    }

    @Test func theInterfaceLimitMakesTheFirstProbeFitIt() {
        var search = Self.search()
        search.pathLimitChanged(to: 1_435, searching: true)  // a 1,500-byte Ethernet hop under IPv4 + DTLS
        var now = Instant.zero
        var probed: [Int] = []
        while let size = search.probeToSend(now: now, nonce: 3) {
            probed.append(size)
            if probed.count == 1 { search.probeAcknowledged(nonce: 3) }
            now += .seconds(1)
            search.probeTimedOut(now: now)
        }
        #expect(probed == [1_432], "one probe, the largest whole word under the limit")
        #expect(search.packetSize == 1_432)
        search.pathLimitChanged(to: nil, searching: true)  // a new path with no known limit
        #expect(search.packetSize == 1_432, "what was confirmed stays while the new search runs")
        #expect(search.probeToSend(now: now, nonce: 4) == 16_384)
        search.pathLimitChanged(to: 1_300, searching: true)  // smaller than what was confirmed
        #expect(search.packetSize == 1_200)
    }

    @Test func aPathLimitedToTheBaseSizeHasNothingToSearch() {
        var search = PathMTUSearch(basePacketSize: 1200, maximumPacketSize: 1200)
        search.start()
        #expect(search.state == .complete)
        #expect(search.probeToSend(now: .zero, nonce: 1) == nil)
    }

    @Test func probePacketsHaveTheExactSizeAndCarryTheirNonce() throws {
        for size in [1_412, 8_912, 16_384] {
            let header = SCTPPacket.header(sourcePort: 5000, destinationPort: 5000, verificationTag: 9)
            let bytes = PathMTUProbe.packet(size: size, nonce: 0xABCD_0123, header: header)
            #expect(bytes.count == size)
            let packet = try SCTPPacket.parse(bytes)
            guard case let .heartbeat(parameters) = packet.chunks.first,
                  case let .heartbeatInfo(info) = parameters.first else {
                Issue.record("no HEARTBEAT first in \(packet.chunks.map(\.type))")
                continue
            }
            #expect(PathMTUProbe.nonce(inHeartbeatInfo: info) == 0xABCD_0123)
            #expect(packet.chunks.last?.type == PathMTUProbe.padChunkType)
        }
        #expect(PathMTUProbe.nonce(inHeartbeatInfo: [0, 0, 0, 0, 0, 0, 0, 1]) == nil, "a plain heartbeat's info")
    }
}
