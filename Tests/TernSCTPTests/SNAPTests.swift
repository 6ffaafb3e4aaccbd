import Testing
import TernCore
@testable import TernSCTP

/// SNAP (draft-hancke-tsvwg-snap): INIT chunks exchanged in the descriptions, the association
/// established without a handshake on the wire.
@Suite struct SNAPTests {
    @Test func anInitRoundTripsThroughItsDescriptionForm() throws {
        let chunk = SCTPAssociation.makeInit(config: SCTPAssociationConfig())
        let bytes = chunk.serializedChunk
        #expect(bytes.first == SCTPChunk.Kind.initiation)
        #expect(Int(bytes[2]) << 8 | Int(bytes[3]) == bytes.count, "the length covers everything: no trailing padding")
        #expect(try InitChunk(serializedChunk: bytes) == chunk)
        #expect(try InitChunk(serializedChunk: bytes + [0, 0]) == chunk, "padding after the chunk is tolerated")
        #expect(chunk.supportsForwardTSN && chunk.supportsReconfig)
    }

    /// The `a=sctp-init` Chromium 156 (field trial WebRTC-Sctp-Snap) put in its answer in the
    /// interop run: 30 bytes, the last parameter unpadded.
    @Test func chromiumsDescribedInitParses() throws {
        let bytes: [UInt8] = [0x01, 0x00, 0x00, 0x1e, 0x85, 0xa6, 0x7b, 0xff, 0x00, 0x50, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff,
                              0xa7, 0x5f, 0x2e, 0x6f, 0xc0, 0x00, 0x00, 0x04, 0x80, 0x08, 0x00, 0x06, 0x82, 0xc0]
        let chunk = try InitChunk(serializedChunk: bytes)
        #expect(chunk.initiateTag == 0x85a6_7bff && chunk.advertisedReceiverWindowCredit == 0x0050_0000)
        #expect(chunk.outboundStreams == 65535 && chunk.inboundStreams == 65535)
        #expect(chunk.supportsForwardTSN && chunk.supportsReconfig)
        #expect(chunk.serializedChunk == bytes, "written back byte for byte")
    }

    @Test(arguments: [
        [UInt8](),                                                   // empty
        [3, 0, 0, 20] + [UInt8](repeating: 1, count: 16),            // a SACK, not an INIT
        [1, 0, 0, 40] + [UInt8](repeating: 1, count: 16),            // length past the bytes
        [1, 0, 0, 20, 0, 0, 0, 0] + [UInt8](repeating: 1, count: 12), // Initiate Tag 0
        [1, 0, 0, 20] + [UInt8](repeating: 1, count: 16) + [0, 0, 0, 0, 0], // 5 bytes after the chunk
        [1, 0, 0x08, 0x04] + [UInt8](repeating: 1, count: 2048),     // over the size bound
    ])
    func malformedDescriptionInitsAreRefused(bytes: [UInt8]) {
        #expect(throws: SCTPPacketError.self) { try InitChunk(serializedChunk: bytes) }
    }

    @Test func bothSidesAreEstablishedAtOnceAndNoHandshakeChunkIsSent() throws {
        let h = DataChannelHarness(snap: true)
        var handshakeChunks = 0
        h.pair.deliverFilter = { _, datagram in
            if let packet = try? SCTPPacket.parse(datagram) {
                for chunk in packet.chunks {
                    switch chunk {
                    case .initiation, .initiationAck, .cookieEcho, .cookieAck: handshakeChunks += 1
                    default: break
                    }
                }
            }
            return true
        }
        let id = try h.a.createDataChannel(label: "chat", now: h.now)
        h.a.connect(now: h.now)
        h.b.connect(now: h.now)
        h.drain()
        #expect(h.eventsA.contains(.connected) && h.eventsB.contains(.connected), "established before any packet moved")
        #expect(h.a.association.establishedWithoutHandshake && h.b.association.establishedWithoutHandshake)
        // The OPEN leaves with the first packet; the channel is usable at once.
        try h.a.send(.string("hello"), channel: id, now: h.now)
        #expect(h.pair.run(for: .seconds(5)) { !h.messages(h.eventsB, on: id).isEmpty })
        #expect(h.opened(h.eventsB).map(\.label) == ["chat"])
        #expect(h.messages(h.eventsB, on: id) == [.string("hello")])
        #expect(handshakeChunks == 0)
        // And back, on a channel the server side opens.
        let back = try h.b.createDataChannel(label: "back", now: h.now)
        try h.b.send(.binary([1, 2, 3]), channel: back, now: h.now)
        #expect(h.pair.run(for: .seconds(5)) { !h.messages(h.eventsA, on: back).isEmpty })
        #expect(h.messages(h.eventsA, on: back) == [.binary([1, 2, 3])])
    }

    @Test func theAssociationUsesTheTagAndTSNItsDescriptionCarried() throws {
        let config = SCTPAssociationConfig.testDefault(seed: 5)
        let described = SCTPAssociation.makeInit(config: config)
        let association = SCTPAssociation(config: config, localInit: described)
        #expect(association.localInit == described)
        try association.send([1], streamIdentifier: 0, payloadProtocolIdentifier: 53, now: .zero)
        let peer = SCTPAssociation.makeInit(config: config)
        association.connect(peerInit: peer, now: .zero)
        var firstTSN: UInt32?
        while let bytes = association.pollTransmit(now: .zero) {
            let packet = try SCTPPacket.parse(bytes)
            #expect(packet.verificationTag == peer.initiateTag, "packets carry the peer's Initiate Tag")
            for case let .data(data) in packet.chunks where firstTSN == nil { firstTSN = data.tsn }
        }
        #expect(firstTSN == described.initialTSN, "the first TSN is the described Initial TSN")
    }

    @Test func theFirstDataLeavesBeforeThePathMTUProbe() throws {
        let config = SCTPAssociationConfig.testDefault(seed: 9)
        let association = SCTPAssociation(config: config, localInit: SCTPAssociation.makeInit(config: config))
        try association.send([1, 2, 3], streamIdentifier: 0, payloadProtocolIdentifier: 53, now: .zero)
        association.connect(peerInit: SCTPAssociation.makeInit(config: config), now: .zero)
        var kinds: [String] = []
        while let bytes = association.pollTransmit(now: .zero) {
            let chunks = try SCTPPacket.parse(bytes).chunks
            if chunks.contains(where: { if case .data = $0 { true } else { false } }) { kinds.append("data") }
            if chunks.contains(where: { if case .heartbeat = $0 { true } else { false } }) { kinds.append("probe") }
        }
        #expect(kinds == ["data", "probe"], "the peer waits for the DATA (a DCEP OPEN); the probe follows it")
    }
}
