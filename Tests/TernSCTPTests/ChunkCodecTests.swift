import Testing
import TernCore
@testable import TernSCTP

/// Table tests: every chunk and parameter kind we build survives serialize → parse unchanged.
@Suite struct ChunkCodecTests {
    static let chunks: [SCTPChunk] = [
        .data(DataChunk(tsn: 7, streamIdentifier: 2, streamSequenceNumber: 9, payloadProtocolIdentifier: 51,
                        userData: [1, 2, 3, 4, 5], unordered: true, beginning: true, ending: false)),
        .initiation(InitChunk(initiateTag: 0xDEADBEEF, advertisedReceiverWindowCredit: 4_194_304, outboundStreams: 65535,
                              inboundStreams: 65535, initialTSN: 1,
                              parameters: [.supportedExtensions([192, 130]), .forwardTSNSupported,
                                           .unknown(type: 0x8002, value: [1, 2, 3])])),
        .initiationAck(InitChunk(initiateTag: 1, advertisedReceiverWindowCredit: 1, outboundStreams: 1, inboundStreams: 1,
                                 initialTSN: 0xFFFF_FFFF, parameters: [.stateCookie([9, 9, 9, 9, 9]),
                                                                       .unrecognizedParameter([0x80, 0x02, 0, 4])])),
        .sack(SackChunk(cumulativeTSNAck: 100, advertisedReceiverWindowCredit: 0,
                        gapBlocks: [.init(start: 2, end: 4)], duplicateTSNs: [99])),
        .heartbeat([.heartbeatInfo([1, 2, 3])]),
        .heartbeatAck([.heartbeatInfo([1, 2, 3])]),
        .abort(reflectsTag: true, causes: [.userAbort("bye")]),
        .shutdown(cumulativeTSNAck: 42),
        .shutdownAck,
        .error([SCTPErrorCause(code: 6, value: [0x40, 0, 0, 4])]),
        .cookieEcho([1, 2, 3]),
        .cookieAck,
        .shutdownComplete(reflectsTag: true),
        .forwardTSN(ForwardTSNChunk(newCumulativeTSN: 5, skipped: [.init(streamIdentifier: 1, streamSequenceNumber: 3)])),
        .reconfig([.outgoingSSNResetRequest(.init(requestSequence: 1, responseSequence: 2, senderLastTSN: 3, streams: [4, 6])),
                   .incomingSSNResetRequest(requestSequence: 5, streams: [1])]),
        .reconfig([.reconfigResponse(.init(responseSequence: 1, result: .inProgress, senderNextTSN: 10, receiverNextTSN: 20))]),
        .unknown(type: 0xBF, flags: 0x5A, value: [1]),
    ]

    @Test(arguments: chunks)
    func chunkRoundTrips(_ chunk: SCTPChunk) throws {
        let packet = SCTPPacket(sourcePort: 5000, destinationPort: 5001, verificationTag: 77, chunks: [chunk])
        let bytes = packet.serialize()
        #expect(bytes.count % 4 == 0, "chunks are padded to 4 bytes")
        #expect(try SCTPPacket.parse(bytes) == packet)
        #expect(SCTPPacket.checksum(of: bytes[...]) == UInt32(bytes[8]) | UInt32(bytes[9]) << 8 | UInt32(bytes[10]) << 16 | UInt32(bytes[11]) << 24)
    }

    @Test func bundledChunksRoundTripInOrder() throws {
        let packet = SCTPPacket(sourcePort: 1, destinationPort: 2, verificationTag: 3, chunks: Self.chunks.filter {
            if case .initiation = $0 { false } else { true }
        })
        #expect(try SCTPPacket.parse(packet.serialize()) == packet)
    }

    @Test func dcepOpenAndAckRoundTrip() throws {
        let open = DCEPMessage.open(DCEPOpen(channelType: .partialReliableTimedUnordered, priority: 256,
                                             reliabilityParameter: 1500, label: "ünïcode label", protocol: "proto"))
        #expect(try DCEPMessage.parse(open.serialize()) == open)
        #expect(try DCEPMessage.parse([0x02]) == .ack)
        // RFC 8832 §5.1 layout: type, channel type, priority, reliability, lengths, label, protocol.
        #expect(DCEPMessage.open(DCEPOpen(channelType: .reliable, priority: 0, reliabilityParameter: 0, label: "a",
                                          protocol: "")).serialize() == [3, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0x61])
    }

    @Test func malformedDCEPIsATypedError() {
        #expect(throws: DataChannelError.self) { try DCEPMessage.parse([]) }
        #expect(throws: DataChannelError.self) { try DCEPMessage.parse([0x07]) }
        #expect(throws: DataChannelError.self) { try DCEPMessage.parse([3, 0, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0x61]) }
        #expect(throws: DataChannelError.self) { try DCEPMessage.parse([3, 0x33, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]) }
        #expect(throws: DataChannelError.self) { try DCEPMessage.parse([3, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0xFF]) }
    }

    @Test func tsnTrackerBuildsGapBlocksAndAbsorbsThem() {
        var t = ReceivedTSNTracker(peerInitialTSN: 0xFFFF_FFFE)  // crosses the 32-bit wrap
        let fresh = [t.insert(0xFFFF_FFFE), t.insert(1), t.insert(2), t.insert(5)]
        #expect(fresh == [true, true, true, true])
        let duplicate = t.insert(5)
        #expect(!duplicate)
        #expect(t.gapBlocks(limit: 10) == [.init(start: 3, end: 4), .init(start: 7, end: 7)])
        let fill = [t.insert(0xFFFF_FFFF), t.insert(0)]
        #expect(fill == [true, true])
        #expect(t.cumulative == 2)
        t.forward(to: 4)
        #expect(t.cumulative == 5 && !t.hasGaps)
    }
}
