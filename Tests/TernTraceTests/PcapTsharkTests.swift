import Foundation
import Testing
import TernTrace

/// Proves Wireshark's own dissectors read what `PcapWriter` produces.
@Suite("tshark decodes PcapWriter output",
       .enabled(if: TestSupport.executable("tshark") != nil, "tshark is not installed (apt-get install tshark)"))
struct PcapTsharkTests {
    @Test("RTP sequence numbers come back over IPv4 and IPv6, with valid checksums")
    func sequenceNumbers() throws {
        let tshark = try #require(TestSupport.executable("tshark"))
        let path = TestSupport.temporaryPath("pcap")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try PcapWriter(path: path)
        let pairs = [
            (try SocketAddress(host: "192.168.1.10", port: 50_000), try SocketAddress(host: "10.0.0.7", port: 5004)),
            (try SocketAddress(host: "2001:db8::1", port: 50_002), try SocketAddress(host: "2001:db8::2", port: 5004)),
        ]
        let sequences: [UInt16] = [65_533, 65_534, 65_535, 0, 1, 2]
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        for (index, sequence) in sequences.enumerated() {
            let (from, to) = pairs[index % 2]
            let rtp = TestSupport.rtpPacket(sequence: sequence, timestamp: UInt32(index) * 960, ssrc: 0x1234_5678)
            try writer.write(payload: rtp, from: from, to: to, at: start.addingTimeInterval(Double(index) * 0.02))
        }
        try writer.close()

        let result = try TestSupport.run(tshark, [
            "-r", path, "-d", "udp.port==5004,rtp",
            "-o", "ip.check_checksum:TRUE", "-o", "udp.check_checksum:TRUE",
            "-T", "fields", "-e", "rtp.seq", "-e", "rtp.p_type", "-e", "rtp.ssrc",
            "-e", "udp.checksum.status",
        ])
        #expect(result.status == 0, "tshark failed: \(result.err)")
        let rows = result.out.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
        #expect(rows.map { $0.first.map(String.init) ?? "" } == sequences.map(String.init))
        for row in rows {
            #expect(row.count == 4)
            #expect(row.dropFirst().first == "111")
            #expect(row.dropFirst(2).first == "0x12345678")
            #expect(row.last == "1", "udp.checksum.status 1 = good")
        }
    }

    @Test("muxed RTCP decodes on the RTP port and writeSCTP packets decode as native SCTP")
    func rtcpAndSCTP() throws {
        let tshark = try #require(TestSupport.executable("tshark"))
        let path = TestSupport.temporaryPath("pcap")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try PcapWriter(path: path)
        let local = SocketAddress(address: .v4(10, 0, 0, 1), port: 40_000)
        let remote = SocketAddress(address: .v4(10, 0, 0, 2), port: 40_002)
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        try writer.write(payload: TestSupport.rtpPacket(sequence: 9, timestamp: 0, ssrc: 7), from: local, to: remote,
                         at: now)
        try writer.write(payload: TestSupport.rtcpSenderReport(ssrc: 7), from: remote, to: local, at: now)
        try writer.writeSCTP(packet: TestSupport.sctpDataPacket(tsn: 1, message: "hello"), from: local.address,
                             to: remote.address, at: now)
        try writer.close()

        let result = try TestSupport.run(tshark, [
            "-r", path, "-d", "udp.port==40002,rtp", "-T", "fields",
            "-e", "rtp.seq", "-e", "rtcp.pt", "-e", "sctp.srcport", "-e", "sctp.data_payload_proto_id",
        ])
        #expect(result.status == 0, "tshark failed: \(result.err)")
        let rows = result.out.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
        #expect(rows == [["9", "", "", ""], ["", "200", "", ""], ["", "", "5000", "51"]])
    }
}
