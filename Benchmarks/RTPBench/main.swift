// RTP parse + write rate (release build, run by Scripts/bench; printed, never asserted).
// The loop of Tests/TernRTPTests/ThroughputBenchmarkTests.swift: a 1100-byte-payload packet with
// two header extensions (mid, transport-wide sequence number) parsed from wire bytes, its
// sequence number changed, and written back into a reused buffer.
import BenchSupport
import TernRTP

let map = HeaderExtensionMap([(1, .mid), (4, .transportWideCC)])
var template = RTPPacket(marker: true, payloadType: 96, sequenceNumber: 1, timestamp: 2, ssrc: 3,
                         payload: [UInt8](repeating: 0xAB, count: 1100)[...])
template.setHeaderExtensions([.mid("0"), .transportSequenceNumber(9)], map: map)
let wire = template.bytes

let iterations = choose(full: 1_000_000, quick: 300_000)
let runs = choose(full: 11, quick: 5)
var checksum = 0
var out: [UInt8] = []
out.reserveCapacity(1500)
var rates: [Double] = []
for run in 0...runs {
    let start = wallSeconds()
    for _ in 0..<iterations {
        guard var packet = try? RTPPacket(parsing: wire) else { fatalError("RTPBench: the template does not parse") }
        packet.sequenceNumber &+= 1
        out.removeAll(keepingCapacity: true)
        packet.write(to: &out)
        checksum &+= out.count
    }
    let seconds = wallSeconds() - start
    if run > 0 { rates.append(Double(iterations) / seconds / 1e6) }  // run 0 warms up
}
guard checksum == (runs + 1) * iterations * wire.count else { fatalError("RTPBench: written packets differ in size") }
Figure(name: "rtp_parse_write_Mpps", unit: "Mpps", samples: rates).emit()
