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

// Bounded work (issue #3): parse time must grow linearly with the description. One audio section
// with N repeated attribute lines, for N = 2,000 and 20,000 (a description a browser's parser was
// reported to need over 30 s for); ns per line should stay flat.
for lines in [2_000, 20_000] {
    let repeated = (0..<lines).map { "a=x-tern-repeat:\($0) payload-to-keep-the-line-honest\r\n" }.joined()
    let big = "v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\n"
        + "c=IN IP4 0.0.0.0\r\na=rtpmap:111 opus/48000/2\r\n" + repeated
    let bigParser = SDPParser(maxSize: big.utf8.count + 1)
    var perLine: [Double] = []
    for run in 0...choose(full: 9, quick: 5) {
        let start = wallSeconds()
        do { written &+= try bigParser.parse(big).media.count } catch {
            fatalError("SDPBench: the \(lines)-line description does not parse: \(error)")
        }
        if run > 0 { perLine.append((wallSeconds() - start) / Double(lines) * 1e9) }
    }
    Figure(name: "sdp_parse_ns_per_line_\(lines / 1000)k", unit: "ns", samples: perLine).emit()
}
