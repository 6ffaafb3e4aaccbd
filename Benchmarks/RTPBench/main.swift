// RTP parse + write rate and RTCP compound parse rate (release build, run by Scripts/bench; printed, never asserted).
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

// RTCP compound parse rate: RTCPPacket.parseCompound of one compound datagram of the kind a
// Chromium peer that sends and receives video emits (RFC 3550 §6.1: the SR first, then SDES, then
// RFC 4585 feedback): an SR with two report blocks, SDES with a 16-character CNAME, a generic NACK
// for 3 packets, a PLI and a transport-wide CC feedback for 40 packets with 2 lost. Built with
// TernRTP's own writers.
let mediaSSRC: UInt32 = 0x1234_5678, localSSRC: UInt32 = 0x9ABC_DEF0
let twccArrivals: [Duration?] = (0..<40).map { index in
    index == 17 || index == 31 ? nil : .microseconds(1_000_000 + index * 850 + (index % 3) * 120)
}
let compound = RTCPPacket.serialize([
    .senderReport(SenderReport(ssrc: localSSRC, ntpTimestamp: NTPTimestamp(seconds: 3_913_056_000, fraction: 0x4000_0000),
                               rtpTimestamp: 1_234_567, packetCount: 9_876, octetCount: 10_123_456, reports: [
        ReportBlock(ssrc: mediaSSRC, fractionLost: 12, cumulativeLost: 57, extendedHighestSequence: 0x0001_2345,
                    jitter: 210, lastSenderReport: 0x1234_5678, delaySinceLastSenderReport: 0x0000_8000),
        ReportBlock(ssrc: mediaSSRC &+ 1, fractionLost: 0, cumulativeLost: 3, extendedHighestSequence: 0x0000_4321,
                    jitter: 45, lastSenderReport: 0x1234_0000, delaySinceLastSenderReport: 0x0001_0000),
    ])),
    .sourceDescription(SourceDescription(chunks: [.init(source: localSSRC, items: [.cname("hR4hT0sYnKk3Vb9Q")])])),
    .genericNACK(GenericNACK(senderSSRC: localSSRC, mediaSSRC: mediaSSRC, lost: [4001, 4003, 4010])),
    .pictureLossIndication(PictureLossIndication(senderSSRC: localSSRC, mediaSSRC: mediaSSRC)),
    .transportWideCC(TransportWideCC(senderSSRC: localSSRC, mediaSSRC: mediaSSRC, feedbackPacketCount: 7,
                                     baseSequenceNumber: 20_000, arrivals: twccArrivals)),
])
guard let parsed = try? RTCPPacket.parseCompound(compound, allowReducedSize: false), parsed.count == 5,
      RTCPPacket.serialize(parsed) == compound else {
    fatalError("RTPBench: the RTCP compound does not parse back to itself")
}
let compoundIterations = choose(full: 300_000, quick: 100_000)
var parsedPackets = 0
var compoundRates: [Double] = []
for run in 0...runs {
    let start = wallSeconds()
    for _ in 0..<compoundIterations {
        guard let packets = try? RTCPPacket.parseCompound(compound, allowReducedSize: false) else {
            fatalError("RTPBench: the RTCP compound does not parse")
        }
        parsedPackets &+= packets.count
    }
    let seconds = wallSeconds() - start
    if run > 0 { compoundRates.append(Double(compoundIterations) / seconds) }  // run 0 warms up
}
guard parsedPackets == (runs + 1) * compoundIterations * 5 else { fatalError("RTPBench: RTCP packets went missing") }
print("RTPBench: the RTCP compound is \(compound.count) bytes")  // not a JSON line: Scripts/bench ignores it
Figure(name: "rtcp_compound_parse_per_s", unit: "compounds/s", samples: compoundRates).emit()
