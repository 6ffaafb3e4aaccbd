import Testing
import TernCore
@testable import TernSCTP

@Suite struct AssociationReliabilityTests {
    @Test func timedPartialReliabilityAbandonsLateMessagesWithoutStalling() throws {
        let count = 3000
        let h = AssociationHarness(conditions: .init(lossRate: 0.10, delay: .milliseconds(30)), seed: 12)
        #expect(h.connect())
        for i in 0..<count {
            try h.a.send(AssociationTransferTests.payload(i), streamIdentifier: 8, payloadProtocolIdentifier: 53,
                         options: .init(lifetime: .milliseconds(50)), now: h.pair.now)
        }
        try h.a.send([1], streamIdentifier: 10, payloadProtocolIdentifier: 53, now: h.pair.now)
        #expect(h.pair.run(for: .seconds(600)) { h.messagesB.contains { $0.streamIdentifier == 10 } && h.a.totalQueuedBytes == 0 })
        let got = h.messagesB.filter { $0.streamIdentifier == 8 }.map(AssociationTransferTests.index)
        #expect(got.count < count && !got.isEmpty)
        #expect(Set(got).count == got.count && got == got.sorted())
    }

    @Test func streamResetUnderLossKeepsEveryEarlierMessageAndRestartsSSN() throws {
        for seed: UInt64 in [1, 2, 3] {
            let h = AssociationHarness(conditions: .init(lossRate: 0.10, delay: .milliseconds(15)), seed: seed)
            #expect(h.connect())
            for i in 0..<100 {
                try h.a.send(AssociationTransferTests.payload(i), streamIdentifier: 3, payloadProtocolIdentifier: 53, now: h.pair.now)
            }
            h.a.resetStreams([3], now: h.pair.now)
            #expect(h.pair.run(for: .seconds(120)) { h.eventsA.contains(.outgoingStreamsReset([3])) })
            #expect(h.eventsB.contains(.incomingStreamsReset([3])))
            #expect(h.messagesB.map(AssociationTransferTests.index) == Array(0..<100))
            try h.a.send([42], streamIdentifier: 3, payloadProtocolIdentifier: 53, now: h.pair.now)
            #expect(h.pair.run(for: .seconds(60)) { h.messagesB.count == 101 })
            #expect(h.messagesB.last?.payload == [42])
        }
    }

    @Test func bufferedAmountFallsAndReportsLowThreshold() throws {
        let h = AssociationHarness()
        #expect(h.connect())
        h.a.setBufferedAmountLowThreshold(10_000, streamIdentifier: 5)
        for _ in 0..<20 {
            try h.a.send([UInt8](repeating: 1, count: 5000), streamIdentifier: 5, payloadProtocolIdentifier: 53, now: h.pair.now)
        }
        #expect(h.a.bufferedAmount(streamIdentifier: 5) == 100_000)
        #expect(h.pair.run(for: .seconds(10)) { h.messagesB.count == 20 })
        #expect(h.a.bufferedAmount(streamIdentifier: 5) == 0)
        #expect(h.eventsA.filter { $0 == .bufferedAmountLow(streamIdentifier: 5) }.count == 1)
    }

    @Test func dataOnAStreamBeyondTheNegotiatedCountIsAckedReportedAndDropped() throws {
        var small = SCTPAssociationConfig.testDefault(seed: 99)
        small.inboundStreams = 4
        let h = AssociationHarness(configB: small)
        // Queued before the stream count is known, so it goes out and b must cope.
        try h.a.send([7], streamIdentifier: 9, payloadProtocolIdentifier: 53, now: h.pair.now)
        try h.a.send([8], streamIdentifier: 1, payloadProtocolIdentifier: 53, now: h.pair.now)
        #expect(h.connect())
        #expect(h.pair.run(for: .seconds(5)) { h.messagesB.count == 1 && h.a.totalQueuedBytes == 0 })
        #expect(h.messagesB.first?.payload == [8])
        #expect(h.eventsA.contains { if case let .peerError(causes) = $0 { causes.first?.code == 1 } else { false } })
        #expect(h.a.outboundStreamCount == 4)
        #expect(throws: SCTPSendError.invalidStream(9, streamCount: 4)) {
            try h.a.send([1], streamIdentifier: 9, payloadProtocolIdentifier: 53, now: h.pair.now)
        }
    }

    @Test func duplicatedAndReorderedPacketsAreDeliveredOnce() throws {
        let h = AssociationHarness(conditions: .init(lossRate: 0.05, duplicateRate: 0.2, delay: .milliseconds(10),
                                                     jitter: .milliseconds(20)), seed: 77)
        #expect(h.connect())
        for i in 0..<2000 {
            try h.a.send(AssociationTransferTests.payload(i), streamIdentifier: 0, payloadProtocolIdentifier: 53, now: h.pair.now)
        }
        #expect(h.pair.run(for: .seconds(600)) { h.messagesB.count >= 2000 })
        #expect(h.messagesB.map(AssociationTransferTests.index) == Array(0..<2000))
        #expect(h.b.stats.duplicateDataChunks > 0)
    }

    /// RFC 6525 §5.2.2: a reset request that overtakes the data it must follow is answered
    /// "in progress", retried by the sender, and performed once the data has arrived.
    @Test func resetRequestArrivingBeforeItsDataIsDeferredUntilTheDataArrives() throws {
        let h = AssociationHarness(conditions: .init(delay: .milliseconds(10)))
        #expect(h.connect())
        var droppedData = 0
        var responses: [ReconfigResponse.Result] = []
        h.pair.deliverFilter = { to, bytes in
            guard let packet = try? SCTPPacket.parse(bytes) else { return true }
            for case let .reconfig(params) in packet.chunks {
                for case let .reconfigResponse(r) in params { responses.append(r.result) }
            }
            // Drop the first transmission of every DATA packet to b: the RE-CONFIG overtakes it.
            if to == .b, packet.chunks.contains(where: { if case .data = $0 { true } else { false } }), droppedData < 3 {
                droppedData += 1
                return false
            }
            return true
        }
        for i in 0..<3 {
            try h.a.send(AssociationTransferTests.payload(i), streamIdentifier: 3, payloadProtocolIdentifier: 53, now: h.pair.now)
        }
        h.a.resetStreams([3], now: h.pair.now)
        #expect(h.pair.run(for: .seconds(30)) { h.eventsA.contains(.outgoingStreamsReset([3])) })
        #expect(responses.contains(.inProgress))
        #expect(responses.last == .successPerformed)
        #expect(h.messagesB.map(AssociationTransferTests.index) == [0, 1, 2])
        #expect(h.eventsB.contains(.incomingStreamsReset([3])))
    }

    @Test func streamsAreServedRoundRobinSoABusyStreamDoesNotStarveOthers() throws {
        let h = AssociationHarness()
        #expect(h.connect())
        for _ in 0..<4 {
            try h.a.send([UInt8](repeating: 1, count: 200_000), streamIdentifier: 0, payloadProtocolIdentifier: 53, now: h.pair.now)
        }
        try h.a.send([2], streamIdentifier: 1, payloadProtocolIdentifier: 53, now: h.pair.now)
        #expect(h.pair.run(for: .seconds(30)) { h.messagesB.count == 5 })
        let position = h.messagesB.firstIndex { $0.streamIdentifier == 1 }
        #expect(position == 1, "the small message goes right after the big one in progress")
    }

    /// RFC 9260 §6.2 flow control: messages the application has not taken count against a_rwnd,
    /// so a reader that stops polling throttles the sender; reading again resumes the transfer.
    @Test func applicationThatStopsReadingThrottlesTheSenderThroughTheReceiveWindow() throws {
        var small = SCTPAssociationConfig.testDefault(seed: 4)
        small.receiveWindow = 512 * 1024
        small.maxMessageSize = 64 * 1024
        let h = AssociationHarness(configB: small, conditions: .init(delay: .milliseconds(5)))
        #expect(h.connect())
        h.drainB = false
        for i in 0..<200 {
            try h.a.send(AssociationTransferTests.payload(i) + [UInt8](repeating: 0, count: 50_000), streamIdentifier: 0,
                         payloadProtocolIdentifier: 53, now: h.pair.now)
        }
        h.pair.run(for: .seconds(20)) { false }
        let queuedAtB = h.b.receiveBufferSize - h.b.advertisedReceiveWindow
        #expect(queuedAtB <= h.b.receiveBufferSize + small.maxMessageSize)
        #expect(h.a.totalQueuedBytes > 5_000_000, "the sender is held back")
        h.drainB = true
        #expect(h.pair.run(for: .seconds(120)) { h.messagesB.count == 200 })
        #expect(h.messagesB.map(AssociationTransferTests.index) == Array(0..<200))
    }

    @Test func incomingMessageAboveLocalMaxMessageSizeIsDiscardedAndCounted() throws {
        var small = SCTPAssociationConfig.testDefault(seed: 5)
        small.maxMessageSize = 10_000
        let h = AssociationHarness(configB: small, conditions: .init(lossRate: 0.05), seed: 6)
        #expect(h.connect())
        try h.a.send([UInt8](repeating: 1, count: 20_000), streamIdentifier: 0, payloadProtocolIdentifier: 53, now: h.pair.now)
        try h.a.send([2], streamIdentifier: 0, payloadProtocolIdentifier: 53, now: h.pair.now)
        #expect(h.pair.run(for: .seconds(30)) { !h.messagesB.isEmpty })
        #expect(h.messagesB.map(\.payload) == [[2]], "the ordered stream continues past the discarded message")
        #expect(h.b.oversizeMessagesDiscarded == 1)
    }

    /// Found by live interop with aiortc: a reset request deferred because its last TSNs are
    /// missing must complete when FORWARD TSN skips them (abandoned PR-SCTP messages), not
    /// only when new DATA arrives.
    @Test func deferredResetCompletesWhenForwardTSNSkipsTheMissingData() throws {
        let h = AssociationHarness(conditions: .init(delay: .milliseconds(10)))
        #expect(h.connect())
        var droppedData = 0
        h.pair.deliverFilter = { to, bytes in
            guard to == .b, let packet = try? SCTPPacket.parse(bytes) else { return true }
            if packet.chunks.contains(where: { if case .data = $0 { true } else { false } }), droppedData < 1 {
                droppedData += 1
                return false
            }
            return true
        }
        try h.a.send([1], streamIdentifier: 4, payloadProtocolIdentifier: 53, options: .init(unordered: true, maxRetransmits: 0),
                     now: h.pair.now)
        h.a.resetStreams([4], now: h.pair.now)
        #expect(h.pair.run(for: .seconds(30)) { h.eventsA.contains(.outgoingStreamsReset([4])) })
        #expect(h.eventsB.contains(.incomingStreamsReset([4])))
        #expect(h.messagesB.isEmpty, "the only message was dropped and abandoned")
        #expect(h.a.stats.abandonedMessages == 1)
    }

    @Test func fragmentedPartialReliableMessagesAreDeliveredWholeOrNotAtAll() throws {
        // 1,200-byte packets (no size discovery on the simulated link): each message spans
        // three packets, so with one retransmission at 10 % loss some are abandoned.
        var config = SCTPAssociationConfig.testDefault(seed: 11)
        config.pathMTUDiscovery = false
        var configB = config
        configB.randomSeed = 22
        let h = AssociationHarness(configA: config, configB: configB,
                                   conditions: .init(lossRate: 0.10, delay: .milliseconds(10)), seed: 21)
        #expect(h.connect())
        var sent: [[UInt8]] = []
        for i in 0..<300 {
            let p = AssociationTransferTests.payload(i) + [UInt8](repeating: UInt8(i & 0xff), count: 3000 + i)
            sent.append(p)
            try h.a.send(p, streamIdentifier: 2, payloadProtocolIdentifier: 53,
                         options: .init(unordered: i % 2 == 0, maxRetransmits: 1), now: h.pair.now)
        }
        try h.a.send([9], streamIdentifier: 6, payloadProtocolIdentifier: 53, now: h.pair.now)
        #expect(h.pair.run(for: .seconds(300)) { h.messagesB.contains { $0.streamIdentifier == 6 } && h.a.totalQueuedBytes == 0 })
        let got = h.messagesB.filter { $0.streamIdentifier == 2 }
        #expect(got.count < 300 && got.count > 150)
        #expect(got.allSatisfy { sent[AssociationTransferTests.index($0)] == $0.payload }, "no partial or mixed messages")
        #expect(Set(got.map(AssociationTransferTests.index)).count == got.count)
        // Abandoned chunks leave `outstanding` once the peer acknowledges the FORWARD TSN.
        #expect(h.pair.run(for: .seconds(10)) { h.a.outstanding.isEmpty })
        #expect(h.a.flightSize == 0)
    }
}
