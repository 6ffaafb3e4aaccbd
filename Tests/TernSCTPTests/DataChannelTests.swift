import Testing
import TernCore
@testable import TernSCTP

@Suite struct DataChannelTests {
    @Test func dcepOpenAnnouncesChannelToPeerWithLabelProtocolAndReliability() throws {
        let h = DataChannelHarness()
        #expect(h.connect())
        let id = try h.a.createDataChannel(label: "chat", options: .init(ordered: false, maxRetransmits: 3, protocol: "json",
                                                                          priority: 512), now: h.now)
        #expect(id % 2 == 0, "DTLS client allocates even stream ids")
        #expect(h.pair.run(for: .seconds(5)) { !h.opened(h.eventsB).isEmpty })
        let remote = try #require(h.opened(h.eventsB).first)
        #expect(remote.id == id && remote.label == "chat" && remote.protocol == "json")
        #expect(remote.ordered == false && remote.maxRetransmits == 3 && remote.priority == 512 && remote.readyState == .open)
        #expect(remote.openedByPeer && h.opened(h.eventsA).first?.openedByPeer == false)
        #expect(h.a.channel(id)?.readyState == .open)
        let serverId = try h.b.createDataChannel(label: "srv", now: h.now)
        #expect(serverId % 2 == 1, "DTLS server allocates odd stream ids")
    }

    @Test func stringBinaryAndEmptyMessagesRoundTrip() throws {
        let h = DataChannelHarness()
        #expect(h.connect())
        let id = try h.a.createDataChannel(label: "x", now: h.now)
        let sent: [DataChannelMessage] = [.string("héllo"), .binary([1, 2, 3]), .string(""), .binary([]), .string("end")]
        for m in sent { try h.a.send(m, channel: id, now: h.now) }
        #expect(h.pair.run(for: .seconds(5)) { h.messages(h.eventsB, on: id).count == sent.count })
        #expect(h.messages(h.eventsB, on: id) == sent)
    }

    @Test func messageChannelCreatedBeforeConnectOpensOnConnect() throws {
        let h = DataChannelHarness()
        let id = try h.a.createDataChannel(label: "early", now: h.now)
        #expect(h.a.channel(id)?.readyState == .connecting)
        #expect(throws: DataChannelError.invalidState(.connecting)) { try h.a.send(.string("no"), channel: id, now: h.now) }
        #expect(h.connect())
        #expect(h.pair.run(for: .seconds(5)) { h.opened(h.eventsB).contains { $0.label == "early" } })
        #expect(h.a.channel(id)?.readyState == .open)
    }

    @Test func negotiatedChannelsNeedNoDCEP() throws {
        let h = DataChannelHarness()
        #expect(h.connect())
        let opts = DataChannelInit(negotiated: true, id: 7)
        _ = try h.a.createDataChannel(label: "n", options: opts, now: h.now)
        _ = try h.b.createDataChannel(label: "n", options: opts, now: h.now)
        try h.a.send(.string("pre"), channel: 7, now: h.now)
        #expect(h.pair.run(for: .seconds(5)) { !h.messages(h.eventsB, on: 7).isEmpty })
        #expect(h.messages(h.eventsB, on: 7) == [.string("pre")])
        #expect(throws: DataChannelError.invalidId("7 is in use")) {
            try h.a.createDataChannel(label: "dup", options: opts, now: h.now)
        }
    }

    @Test func messageLargerThanRemoteMaxMessageSizeIsRefusedAtSend() throws {
        let h = DataChannelHarness()
        #expect(h.connect())
        h.a.remoteMaxMessageSize = 1000
        let id = try h.a.createDataChannel(label: "x", now: h.now)
        #expect(throws: DataChannelError.messageTooLarge(size: 1001, limit: 1000)) {
            try h.a.send(.binary([UInt8](repeating: 0, count: 1001)), channel: id, now: h.now)
        }
        try h.a.send(.binary([UInt8](repeating: 0, count: 1000)), channel: id, now: h.now)
    }

    @Test func aRepeatedIdenticalOpenIsAcknowledgedAndAConflictingOneRefusedWithoutClosingTheChannel() throws {
        let h = DataChannelHarness()
        #expect(h.connect())
        let id = try h.a.createDataChannel(label: "gst", options: .init(ordered: false, maxRetransmits: 2), now: h.now)
        #expect(h.pair.run(for: .seconds(5)) { !h.opened(h.eventsB).isEmpty })
        // What GStreamer 1.22 puts on the wire: the same OPEN again in the next DATA chunk.
        let same = DCEPMessage.open(DCEPOpen(channelType: .partialReliableRexmitUnordered, priority: 256,
                                             reliabilityParameter: 2, label: "gst", protocol: "")).serialize()
        try h.a.association.send(same, streamIdentifier: id, payloadProtocolIdentifier: DataChannelPPID.dcep, now: h.now)
        // A hostile peer: the stream in use claimed for another channel.
        let other = DCEPMessage.open(DCEPOpen(channelType: .reliable, priority: 256, reliabilityParameter: 0,
                                              label: "takeover", protocol: "")).serialize()
        try h.a.association.send(other, streamIdentifier: id, payloadProtocolIdentifier: DataChannelPPID.dcep, now: h.now)
        try h.a.send(.string("still here"), channel: id, now: h.now)
        #expect(h.pair.run(for: .seconds(5)) { !h.messages(h.eventsB, on: id).isEmpty })
        #expect(h.b.repeatedOpensAcknowledged == 1)
        #expect(h.b.conflictingOpensRefused == 1)
        #expect(h.closed(h.eventsB).isEmpty)
        #expect(!h.eventsB.contains { if case .messageRejected = $0 { true } else { false } })
        #expect(h.opened(h.eventsB).count == 1)
        #expect(h.b.channel(id)?.readyState == .open && h.b.channel(id)?.label == "gst")
        #expect(h.messages(h.eventsB, on: id) == [.string("still here")])
    }

    @Test func deprecatedPartialPPIDsAreRejectedCleanly() throws {
        let h = DataChannelHarness()
        #expect(h.connect())
        let id = try h.a.createDataChannel(label: "x", now: h.now)
        #expect(h.pair.run(for: .seconds(5)) { !h.opened(h.eventsB).isEmpty })
        try h.a.association.send([1, 2], streamIdentifier: id, payloadProtocolIdentifier: 52, now: h.now)
        try h.a.association.send([3, 4], streamIdentifier: id, payloadProtocolIdentifier: 54, now: h.now)
        try h.a.send(.string("after"), channel: id, now: h.now)
        #expect(h.pair.run(for: .seconds(5)) { !h.messages(h.eventsB, on: id).isEmpty })
        let rejected = h.eventsB.filter { if case .messageRejected = $0 { true } else { false } }
        #expect(rejected.count == 2)
        #expect(h.messages(h.eventsB, on: id) == [.string("after")])
    }

    @Test func closeResetsStreamsAndBothSidesReportClosed() throws {
        let h = DataChannelHarness()
        #expect(h.connect())
        let id = try h.a.createDataChannel(label: "x", now: h.now)
        try h.a.send(.string("last words"), channel: id, now: h.now)
        h.a.close(channel: id, now: h.now)
        #expect(h.a.channel(id)?.readyState == .closing)
        #expect(h.pair.run(for: .seconds(10)) { !h.closed(h.eventsA).isEmpty && !h.closed(h.eventsB).isEmpty })
        #expect(h.messages(h.eventsB, on: id) == [.string("last words")])
        #expect(h.a.channel(id) == nil && h.b.channel(id) == nil)
        // The id can be reused and SSNs restart at 0 on both sides.
        let again = try h.a.createDataChannel(label: "again", now: h.now)
        #expect(again == id)
        try h.a.send(.string("new"), channel: again, now: h.now)
        #expect(h.pair.run(for: .seconds(5)) { h.messages(h.eventsB, on: id).count == 2 })
    }

    @Test func thousandChannelsOpenedAndClosed() throws {
        let h = DataChannelHarness(conditions: .init(lossRate: 0.02, delay: .milliseconds(10)), seed: 4)
        #expect(h.connect())
        var ids: [UInt16] = []
        for i in 0..<1000 { ids.append(try h.a.createDataChannel(label: "c\(i)", now: h.now)) }
        #expect(h.pair.run(for: .seconds(120)) { h.opened(h.eventsB).count == 1000 })
        for id in ids { try h.a.send(.string("m\(id)"), channel: id, now: h.now) }
        #expect(h.pair.run(for: .seconds(120)) { h.eventsB.filter { if case .message = $0 { true } else { false } }.count == 1000 })
        for id in ids { h.a.close(channel: id, now: h.now) }
        #expect(h.pair.run(for: .seconds(600)) { h.closed(h.eventsA).count == 1000 && h.closed(h.eventsB).count == 1000 })
        #expect(h.a.channelIds.isEmpty && h.b.channelIds.isEmpty)
    }

    @Test func peerVanishingClosesChannelsWithAReason() throws {
        let h = DataChannelHarness { $0.heartbeatInterval = .seconds(2) }
        #expect(h.connect())
        let id = try h.a.createDataChannel(label: "x", now: h.now)
        #expect(h.pair.run(for: .seconds(5)) { !h.opened(h.eventsB).isEmpty })
        h.pair.deliverFilter = { to, _ in to != .a }  // b's packets never reach a: peer vanished.
        try h.a.send(.string("into the void"), channel: id, now: h.now)
        #expect(h.pair.run(for: .seconds(3600)) { !h.closed(h.eventsA).isEmpty })
        let (cid, reason) = try #require(h.closed(h.eventsA).first)
        #expect(cid == id)
        #expect(reason.contains("unreachable"))
        #expect(h.eventsA.contains { if case .associationClosed(.peerUnreachable) = $0 { true } else { false } })
    }

    @Test func idlePeerVanishingIsDetectedByHeartbeats() throws {
        let h = DataChannelHarness { $0.heartbeatInterval = .seconds(1) }
        #expect(h.connect())
        _ = try h.a.createDataChannel(label: "x", now: h.now)
        #expect(h.pair.run(for: .seconds(5)) { !h.opened(h.eventsB).isEmpty })
        h.pair.deliverFilter = { _, _ in false }
        #expect(h.pair.run(for: .seconds(3600)) { !h.closed(h.eventsA).isEmpty && !h.closed(h.eventsB).isEmpty })
    }

    @Test func abortClosesPeerChannelsAndFreshAssociationsReconnect() throws {
        let h = DataChannelHarness()
        #expect(h.connect())
        let id = try h.a.createDataChannel(label: "x", now: h.now)
        #expect(h.pair.run(for: .seconds(5)) { !h.opened(h.eventsB).isEmpty })
        h.a.abort(reason: "user hung up", now: h.now)
        #expect(h.pair.run(for: .seconds(5)) { !h.closed(h.eventsB).isEmpty })
        #expect(h.closed(h.eventsB).first?.1.contains("user hung up") == true)
        #expect(h.closed(h.eventsA).first?.0 == id)
        #expect(throws: DataChannelError.self) { try h.a.send(.string("x"), channel: id, now: h.now) }

        // Restart: a new pair of endpoints over the same link reconnects and carries data.
        let again = DataChannelHarness(seed: 2)
        #expect(again.connect())
        let id2 = try again.a.createDataChannel(label: "y", now: again.now)
        try again.a.send(.string("back"), channel: id2, now: again.now)
        #expect(again.pair.run(for: .seconds(5)) { again.messages(again.eventsB, on: id2) == [.string("back")] })
    }

    @Test func randomDCEPAndPayloadsNeverCrashTheEndpoint() throws {
        let h = DataChannelHarness()
        #expect(h.connect())
        let id = try h.a.createDataChannel(label: "fuzz", now: h.now)
        #expect(h.pair.run(for: .seconds(5)) { !h.opened(h.eventsB).isEmpty })
        var rng = SeededRandom(seed: 31337)
        let valid = DCEPMessage.open(DCEPOpen(channelType: .reliable, priority: 256, reliabilityParameter: 0,
                                              label: "label", protocol: "p")).serialize()
        for round in 0..<2000 {
            var bytes = round % 2 == 0 ? valid : (0..<Int.random(in: 1...40, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            if round % 2 == 0 { bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng) }
            let ppid: UInt32 = [50, 50, 51, 52, 53, 54, 56, 57, 99][Int.random(in: 0..<9, using: &rng)]
            let stream = UInt16.random(in: 0...40, using: &rng)
            try h.a.association.send(bytes, streamIdentifier: stream == id ? id + 2 : stream, payloadProtocolIdentifier: ppid,
                                     now: h.now)
            if round % 50 == 0 { h.pair.run(for: .milliseconds(50)) { false } }
        }
        try h.a.send(.string("still alive"), channel: id, now: h.now)
        #expect(h.pair.run(for: .seconds(30)) { h.messages(h.eventsB, on: id).contains(.string("still alive")) })
        #expect(h.eventsB.contains { if case .messageRejected = $0 { true } else { false } })
    }

    @Test func unreadMessagesThrottleTheSenderAndReadingResumesTheTransfer() throws {
        let h = DataChannelHarness(conditions: .init(delay: .milliseconds(5))) {
            $0.receiveWindow = 256 * 1024
            $0.maxMessageSize = 64 * 1024
        }
        #expect(h.connect())
        let id = try h.a.createDataChannel(label: "bulk", now: h.now)
        #expect(h.pair.run(for: .seconds(5)) { !h.opened(h.eventsB).isEmpty })
        h.drainB = false
        for i in 0..<100 { try h.a.send(.binary([UInt8](repeating: UInt8(i), count: 60_000)), channel: id, now: h.now) }
        h.pair.run(for: .seconds(10)) { false }
        #expect(h.a.association.totalQueuedBytes > 3_000_000, "the sender is held back by the closed window")
        h.drainB = true
        #expect(h.pair.run(for: .seconds(60)) { h.messages(h.eventsB, on: id).count == 100 })
        #expect(h.messages(h.eventsB, on: id) == (0..<100).map { .binary([UInt8](repeating: UInt8($0), count: 60_000)) })
    }
}
