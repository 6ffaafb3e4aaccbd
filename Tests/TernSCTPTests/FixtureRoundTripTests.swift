import Foundation
import Testing
import TernCore
@testable import TernSCTP

/// Golden fixtures captured from aiortc (see Fixtures/README.md): parse, verify CRC32c,
/// re-serialize byte for byte.
@Suite struct FixtureRoundTripTests {
    static func lines(_ name: String) throws -> [(String, [UInt8])] {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: "hex", subdirectory: "Fixtures"))
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ")
            guard parts.count == 2, let bytes = Hex.decode(parts[1]) else { return nil }
            return (String(parts[0]), bytes)
        }
    }

    @Test func aiortcSessionPacketsRoundTripByteForByte() throws {
        let packets = try Self.lines("aiortc-session")
        #expect(packets.count >= 50)
        var kinds = Set<UInt8>()
        for (_, bytes) in packets {
            let packet = try SCTPPacket.parse(bytes)
            #expect(packet.serialize() == bytes)
            for c in packet.chunks { kinds.insert(c.type) }
        }
        for k: UInt8 in [0, 1, 2, 3, 6, 10, 11, 130, 192] { #expect(kinds.contains(k), "chunk type \(k) captured") }
    }

    @Test func aiortcChunkSerializationsRoundTripByteForByte() throws {
        let packets = try Self.lines("aiortc-chunks")
        #expect(packets.count == 11)
        for (name, bytes) in packets {
            let packet = try SCTPPacket.parse(bytes)
            #expect(packet.serialize() == bytes, "\(name)")
        }
        let sack = try SCTPPacket.parse(try #require(packets.first { $0.0 == "sack-gaps-dups" }).1)
        #expect(sack.chunks == [.sack(SackChunk(cumulativeTSNAck: 1000, advertisedReceiverWindowCredit: 131072,
                                                gapBlocks: [.init(start: 2, end: 3), .init(start: 5, end: 9)],
                                                duplicateTSNs: [998, 999]))])
        let reset = try SCTPPacket.parse(try #require(packets.first { $0.0 == "reconfig-outgoing-reset" }).1)
        #expect(reset.chunks == [.reconfig([.outgoingSSNResetRequest(.init(requestSequence: 10, responseSequence: 20,
                                                                           senderLastTSN: 30, streams: [2, 4, 6]))])])
    }

    @Test func aiortcSessionCarriesTheExpectedDCEPAndPayloads() throws {
        let packets = try Self.lines("aiortc-session").map { try SCTPPacket.parse($0.1) }
        let data = packets.flatMap(\.chunks).compactMap { if case let .data(d) = $0 { d } else { nil } }
        let opens = data.filter { $0.payloadProtocolIdentifier == 50 }.compactMap { try? DCEPMessage.parse(Array($0.userData)) }
        #expect(opens.contains(.open(DCEPOpen(channelType: .reliable, priority: 0, reliabilityParameter: 0,
                                              label: "chat", protocol: "json"))))
        #expect(opens.contains(.ack))
        #expect(data.contains { $0.payloadProtocolIdentifier == 51 && Array($0.userData) == Array("hello".utf8) })
        #expect(data.contains { $0.payloadProtocolIdentifier == 56 && Array($0.userData) == [0] })
        #expect(data.contains { $0.payloadProtocolIdentifier == 57 && Array($0.userData) == [0] })
        let inits = packets.flatMap(\.chunks).compactMap { if case let .initiation(i) = $0 { i } else { nil } }
        #expect(!inits.isEmpty && inits.allSatisfy { $0.supportsForwardTSN })
    }

    /// Chromium 156's dcSCTP, as it spoke to `tern peer` in the interop data case (see README).
    @Test func chromiumSessionPacketsRoundTripByteForByte() throws {
        let packets = try Self.lines("chromium-session")
        #expect(packets.count >= 20)
        var kinds = Set<UInt8>()
        var data: [DataChunk] = []
        for (name, bytes) in packets {
            let packet = try SCTPPacket.parse(bytes)  // the CRC32c is checked here
            #expect(packet.serialize() == bytes, "\(name)")
            for chunk in packet.chunks {
                kinds.insert(chunk.type)
                if case let .data(d) = chunk { data.append(d) }
            }
        }
        for k: UInt8 in [0, 3, 5, 6] { #expect(kinds.contains(k), "chunk type \(k) captured from Chromium") }
        #expect(kinds.contains(1) || kinds.contains(2), "Chromium's INIT or INIT ACK")
        let opens = data.filter { $0.payloadProtocolIdentifier == 50 }.compactMap { try? DCEPMessage.parse(Array($0.userData)) }
        let labels = opens.compactMap { if case let .open(open) = $0 { open.label } else { nil } }
        #expect(labels.contains("chrome-echo") && labels.contains("chrome-unordered"), "Chromium's DCEP OPENs: \(labels)")
        #expect(opens.contains(.ack), "Chromium acknowledges Tern's channel")
    }

    @Test func corruptedChecksumIsRejected() throws {
        var bytes = try #require(try Self.lines("aiortc-session").first).1
        bytes[bytes.count - 1] ^= 0x01
        #expect(throws: SCTPPacketError.self) { try SCTPPacket.parse(bytes) }
    }
}
