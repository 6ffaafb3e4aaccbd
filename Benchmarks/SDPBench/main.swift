// SDP parse + write round trip (release build, run by Scripts/bench; printed, never asserted).
//
//   SDPBench <offer.sdp>
//
// Parses the description with SDPParser and writes it back with `.text`, in µs per round trip.
// Scripts/bench runs Benchmarks/aiortc/sdp_roundtrip.py on the same file right after.
import BenchSupport
import Foundation
import TernSDP

guard CommandLine.arguments.count == 2,
      let data = FileManager.default.contents(atPath: CommandLine.arguments[1]),
      let text = String(data: data, encoding: .utf8) else {
    fatalError("usage: SDPBench <offer.sdp> (a readable UTF-8 file)")
}
let parser = SDPParser()
let iterations = choose(full: 2_000, quick: 500)
let runs = choose(full: 15, quick: 7)
var written = 0
var times: [Double] = []
for run in 0...runs {
    let start = wallSeconds()
    for _ in 0..<iterations {
        do {
            written &+= try parser.parse(text).text.utf8.count
        } catch {
            fatalError("SDPBench: \(CommandLine.arguments[1]) does not parse: \(error)")
        }
    }
    let seconds = wallSeconds() - start
    if run > 0 { times.append(seconds / Double(iterations) * 1e6) }  // run 0 warms up
}
guard written > 0 else { fatalError("SDPBench: nothing written") }
Figure(name: "sdp_roundtrip_us", unit: "us", samples: times).emit()
