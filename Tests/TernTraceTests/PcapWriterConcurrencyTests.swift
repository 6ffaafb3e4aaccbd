import Foundation
import Testing
import TernTrace

@Suite("PcapWriter under concurrent writers")
struct PcapWriterConcurrencyTests {
    @Test("records written from many threads at once all arrive whole")
    func concurrentWrites() throws {
        let path = TestSupport.temporaryPath("pcap")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try PcapWriter(path: path, bufferSize: 512)
        let from = SocketAddress(address: .v4(127, 0, 0, 1), port: 4000)
        let to = SocketAddress(address: .v4(127, 0, 0, 1), port: 5004)
        DispatchQueue.concurrentPerform(iterations: 400) { index in
            let rtp = TestSupport.rtpPacket(sequence: UInt16(index), timestamp: 0, ssrc: 9, payloadSize: index % 50)
            // A failure here shows up below as a missing sequence number.
            try? writer.write(payload: rtp, from: from, to: to, at: PcapTimestamp(seconds: 1, microseconds: 0))
        }
        try writer.close()
        let file = try PcapFile(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(file.records.count == 400)
        let sequences = file.records.map { Int($0.data[30]) << 8 | Int($0.data[31]) }
        #expect(Set(sequences) == Set(0..<400))
        for (record, sequence) in zip(file.records, sequences) {
            #expect(record.data.count == 28 + 12 + sequence % 50, "record of packet \(sequence) is whole")
        }
    }

    @Test("opening an existing file replaces its contents")
    func truncatesExistingFile() throws {
        let path = TestSupport.temporaryPath("pcap")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(repeating: 0x55, count: 1000).write(to: URL(fileURLWithPath: path))
        try PcapWriter(path: path).close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(PcapFormat.fileHeader()))
    }
}
