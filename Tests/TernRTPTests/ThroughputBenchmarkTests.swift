import Testing
import TernCore
import TernRTP

/// Speed measurement, not a test of speed: it runs only with TERN_BENCH=1 and
/// asserts nothing about time (tests never assert wall-clock times). Run:
///   TERN_BENCH=1 swift test -c release --filter ThroughputBenchmark
@Suite("Throughput benchmark (TERN_BENCH=1)")
struct ThroughputBenchmarkTests {
    static var enabled: Bool { Environment.flag("TERN_BENCH") }

    @Test("RTP parse + write and RTCP compound parse, packets per second", .enabled(if: enabled))
    func rtpThroughput() throws {
        let map = HeaderExtensionMap([(1, .mid), (4, .transportWideCC)])
        var packet = RTPPacket(marker: true, payloadType: 96, sequenceNumber: 1, timestamp: 2, ssrc: 3,
                               payload: [UInt8](repeating: 0xAB, count: 1100)[...])
        packet.setHeaderExtensions([.mid("0"), .transportSequenceNumber(9)], map: map)
        let wire = packet.bytes
        let iterations = 2_000_000
        var checksum = 0
        var out: [UInt8] = []
        out.reserveCapacity(1500)
        let clock = ContinuousClock()
        let parseOnly = try clock.measure {
            for i in 0..<iterations {
                let p = try RTPPacket(parsing: wire)
                checksum &+= Int(p.sequenceNumber) &+ p.payload.count &+ i
            }
        }
        let parseWrite = try clock.measure {
            for _ in 0..<iterations {
                var p = try RTPPacket(parsing: wire)
                p.sequenceNumber &+= 1
                out.removeAll(keepingCapacity: true)
                p.write(to: &out)
                checksum &+= out.count
            }
        }
        let parseExtension = try clock.measure {
            for _ in 0..<iterations {
                let p = try RTPPacket(parsing: wire)
                checksum &+= Int(p.transportSequenceNumber(map: map) ?? 0)
            }
        }
        let rtcp = RTCPPacket.serialize([
            .receiverReport(ReceiverReport(ssrc: 1, reports: [ReportBlock(ssrc: 2, fractionLost: 3, cumulativeLost: 4)])),
            .genericNACK(GenericNACK(senderSSRC: 1, mediaSSRC: 2, lost: [1, 2, 5, 40])),
        ])
        let rtcpTime = try clock.measure {
            for _ in 0..<(iterations / 4) {
                checksum &+= try RTCPPacket.parseCompound(rtcp).count
            }
        }
        func rate(_ d: Duration, _ n: Int) -> String { "\(Int(Double(n) / d.seconds / 1000)) k/s" }
        print("RTP 1100-byte payload with 2 extensions: parse \(rate(parseOnly, iterations)), parse+write \(rate(parseWrite, iterations)), "
              + "parse+TWCC seq lookup \(rate(parseExtension, iterations)); RTCP RR+NACK compound parse \(rate(rtcpTime, iterations / 4)) (checksum \(checksum))")
        #expect(checksum != 0)
    }
}

enum Environment {
    static func flag(_ name: String) -> Bool {
        guard let value = getenv(name) else { return false }
        return String(cString: value) == "1"
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
