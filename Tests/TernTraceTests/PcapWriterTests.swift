import Foundation
import Testing
import TernCore
import TernTrace

@Suite("PcapWriter writes classic pcap that reads back")
struct PcapWriterTests {
    let alice = SocketAddress(address: .v4(192, 168, 1, 10), port: 50_000)
    let bob = SocketAddress(address: .v4(10, 0, 0, 7), port: 5004)

    /// Writes `count` RTP packets 20 ms apart from alice to bob and returns the file read back.
    func writeRTP(count: Int, path: String) throws -> PcapFile {
        let writer = try PcapWriter(path: path, bufferSize: 100)
        let start = Date(timeIntervalSince1970: 1_700_000_000.25)
        for index in 0..<count {
            let packet = TestSupport.rtpPacket(sequence: UInt16(1000 + index), timestamp: UInt32(960 * index),
                                               ssrc: 0xCAFE_BABE)
            try writer.write(payload: packet, from: alice, to: bob, at: start.addingTimeInterval(0.02 * Double(index)))
        }
        #expect(writer.packetCount == count)
        try writer.close()
        return try PcapFile(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    @Test("file header is magic a1b2c3d4, v2.4, snaplen 65535, LINKTYPE_RAW")
    func fileHeader() throws {
        let path = TestSupport.temporaryPath("pcap")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try writeRTP(count: 0, path: path)
        let raw = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(raw == [0xd4, 0xc3, 0xb2, 0xa1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0, 101, 0, 0, 0])
        #expect(file.versionMajor == 2 && file.versionMinor == 4)
        #expect(file.snapshotLength == 65_535 && file.linkType == 101 && !file.nanosecondTimestamps)
        #expect(file.records.isEmpty)
        // Decrypted traffic: owner-only.
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
    }

    @Test("records carry timestamps, valid IPv4/UDP headers and the exact payload")
    func records() throws {
        let path = TestSupport.temporaryPath("pcap")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try writeRTP(count: 5, path: path)
        #expect(file.records.count == 5)
        for (index, record) in file.records.enumerated() {
            let payload = TestSupport.rtpPacket(sequence: UInt16(1000 + index), timestamp: UInt32(960 * index),
                                                ssrc: 0xCAFE_BABE)
            #expect(record.seconds == 1_700_000_000)
            #expect(record.subseconds == UInt32(250_000 + 20_000 * index))
            #expect(record.data.count == 28 + payload.count)
            #expect(record.originalLength == UInt32(28 + payload.count))
            let ip = record.data
            #expect(ip[0] == 0x45 && ip[9] == 17)
            #expect(Int(ip[2]) << 8 | Int(ip[3]) == ip.count)
            #expect(Array(ip[12..<16]) == [192, 168, 1, 10] && Array(ip[16..<20]) == [10, 0, 0, 7])
            #expect(onesComplementSum(ip[0..<20]) == 0xFFFF, "IPv4 header checksum verifies")
            #expect(Int(ip[20]) << 8 | Int(ip[21]) == 50_000 && Int(ip[22]) << 8 | Int(ip[23]) == 5004)
            #expect(Int(ip[24]) << 8 | Int(ip[25]) == 8 + payload.count)
            let pseudo: [UInt8] = Array(ip[12..<20]) + [0, 17, ip[24], ip[25]]
            #expect(onesComplementSum(pseudo + Array(ip[20...])) == 0xFFFF, "UDP checksum verifies")
            #expect(Array(ip[28...]) == payload)
        }
    }

    @Test("IPv6 ends produce a version-6 packet with a valid UDP checksum")
    func ipv6() throws {
        let path = TestSupport.temporaryPath("pcap")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try PcapWriter(path: path)
        let from = try SocketAddress(host: "2001:db8::1", port: 4000)
        let to = try SocketAddress(host: "2001:db8::2", port: 5004)
        let payload = TestSupport.rtpPacket(sequence: 7, timestamp: 0, ssrc: 1, payloadSize: 3)
        try writer.write(payload: payload, from: from, to: to, at: PcapTimestamp(seconds: 10, microseconds: 5))
        try writer.close()
        let file = try PcapFile(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        let ip = try #require(file.records.first).data
        #expect(ip[0] >> 4 == 6 && ip[6] == 17 && ip.count == 48 + payload.count)
        let udpLength = UInt16(8 + payload.count)
        let pseudo: [UInt8] = Array(ip[8..<40]) + [0, 0, UInt8(udpLength >> 8), UInt8(udpLength & 0xFF), 0, 0, 0, 17]
        #expect(onesComplementSum(pseudo + Array(ip[40...])) == 0xFFFF)
        #expect(Array(ip[48...]) == payload)
    }

    @Test("a payload beyond the snapshot length is truncated and orig_len keeps the true size")
    func truncation() throws {
        let path = TestSupport.temporaryPath("pcap")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try PcapWriter(path: path)
        try writer.write(payload: [UInt8](repeating: 1, count: 70_000), from: alice, to: bob, at: Date())
        #expect(writer.truncatedCount == 1)
        try writer.close()
        let record = try #require(try PcapFile(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
            .records.first)
        #expect(record.data.count == 65_535)
        #expect(record.originalLength == 70_028)
    }

    @Test("mixed families, writes after close, and unwritable paths are typed errors")
    func errors() throws {
        let path = TestSupport.temporaryPath("pcap")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try PcapWriter(path: path)
        let v6 = try SocketAddress(host: "::1", port: 9)
        #expect(throws: PcapError.addressFamilyMismatch(from: alice.address, to: v6.address)) {
            try writer.write(payload: [1], from: alice, to: v6, at: Date())
        }
        try writer.close()
        try writer.close()
        #expect(throws: PcapError.closed(path: path)) { try writer.write(payload: [1], from: alice, to: bob, at: Date()) }
        #expect(throws: PcapError.self) { try PcapWriter(path: "/nonexistent-dir-terntrace/x.pcap") }
        #expect(throws: PcapError.self) { try PcapFile(bytes: [1, 2, 3]) }
        #expect(throws: PcapError.self) { try PcapFile(bytes: PcapFormat.fileHeader() + [0, 0, 0, 0]) }
    }

    @Test("writeSCTP stores a native IP protocol 132 packet with the SCTP bytes unchanged")
    func sctp() throws {
        let path = TestSupport.temporaryPath("pcap")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try PcapWriter(path: path)
        let sctp = TestSupport.sctpDataPacket(tsn: 42, message: "hi")
        try writer.writeSCTP(packet: sctp, from: alice.address, to: bob.address, at: Date())
        try writer.close()
        let ip = try #require(try PcapFile(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
            .records.first).data
        #expect(ip[0] == 0x45 && ip[9] == 132 && ip.count == 20 + sctp.count)
        #expect(onesComplementSum(ip[0..<20]) == 0xFFFF)
        #expect(Array(ip[20...]) == sctp)
    }

    @Test("Instant timestamps map through a wall-clock anchor")
    func anchor() {
        let anchor = WallClockAnchor(date: Date(timeIntervalSince1970: 100), instant: .zero)
        let stamp = PcapTimestamp(Instant.zero + .milliseconds(1500), anchor: anchor)
        #expect(stamp == PcapTimestamp(seconds: 101, microseconds: 500_000))
        #expect(PcapTimestamp(Date(timeIntervalSince1970: -5)) == PcapTimestamp(seconds: 0, microseconds: 0))
    }

    /// RFC 1071 sum without the final complement: 0xFFFF means the embedded checksum is right.
    func onesComplementSum(_ bytes: some Collection<UInt8>) -> UInt16 {
        var sum: UInt32 = 0
        var array = Array(bytes)
        if array.count % 2 == 1 { array.append(0) }
        for index in stride(from: 0, to: array.count, by: 2) { sum += UInt32(array[index]) << 8 | UInt32(array[index + 1]) }
        while sum > 0xFFFF { sum = (sum & 0xFFFF) + (sum >> 16) }
        return UInt16(sum)
    }
}
