import Foundation
import Testing
import TernPeer

/// Docs/EMBEDDING.md's Swift samples never rot: each ```swift block is preceded by
/// `<!-- sample: PATH -->` and is byte-identical to that file, which the test suite compiles
/// (test-target files) or the example package builds (Examples/DataChannelLoopback); the
/// example's `main.swift` body is also run in-process by `EmbeddingDataChannelSampleTests`.
@Suite("Docs/EMBEDDING.md samples")
struct EmbeddingDocTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// One fenced Swift block and the file it claims to be.
    struct Sample {
        var path: String?
        var code: String
    }

    static func samples() throws -> [Sample] {
        let doc = try String(contentsOf: root.appending(path: "Docs/EMBEDDING.md"), encoding: .utf8)
        var samples: [Sample] = []
        var pending: String?
        var current: [String]?
        var previous = ""
        for line in doc.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if var lines = current {
                if line == "```" {
                    samples.append(Sample(path: pending, code: lines.joined(separator: "\n") + "\n"))
                    current = nil
                    pending = nil
                } else {
                    lines.append(line)
                    current = lines
                }
            } else if line == "```swift" {
                let marker = previous.trimmingCharacters(in: .whitespaces)
                if marker.hasPrefix("<!-- sample: "), marker.hasSuffix(" -->") {
                    pending = String(marker.dropFirst("<!-- sample: ".count).dropLast(" -->".count))
                }
                current = []
            }
            previous = line
        }
        return samples
    }

    @Test("every Swift block names its file and is byte-identical to it")
    func blocksMatchCompiledFiles() throws {
        let samples = try Self.samples()
        #expect(samples.count == 3)
        for sample in samples {
            let path = try #require(sample.path, "a ```swift block without <!-- sample: PATH --> before it:\n\(sample.code)")
            let file = try String(contentsOf: Self.root.appending(path: path), encoding: .utf8)
            #expect(file == sample.code, "Docs/EMBEDDING.md differs from \(path)")
        }
    }

    @Test("the main.swift sample starts with its Tern imports and its body is the one run in-process")
    func mainBodyIsTheTestedOne() throws {
        let sample = try #require(try Self.samples().first { $0.path?.hasSuffix("/main.swift") == true })
        let lines = sample.code.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first?.hasPrefix("import Tern") == true)
        let body = lines.drop { $0.hasPrefix("import ") }.drop { $0.isEmpty }
            .map { $0.isEmpty ? "" : "        " + $0 }.joined(separator: "\n")
        let test = try String(contentsOf: Self.root.appending(path: "Tests/TernPeerTests/EmbeddingDataChannelSampleTests.swift"),
                              encoding: .utf8)
        let begin = "        // --- begin main.swift body ---\n", end = "        // --- end main.swift body ---\n"
        let start = try #require(test.range(of: begin)), stop = try #require(test.range(of: end))
        #expect(String(test[start.upperBound..<stop.lowerBound]) == body)
    }

    @Test("the audio/video sample: the callee hears 440 Hz and decodes pictures in order")
    func audioVideoSampleRuns() async throws {
        let result = await withTaskGroup(of: (tone: Double?, counters: [UInt16])?.self) { group in
            group.addTask { try? await audioVideoCall() }
            group.addTask {
                // A bound against a hang, not a speed check (0.8 s alone; up to ~40 s while the
                // rest of the suite's real-time tests share the two-thread pool): cancelling ends
                // the sample's streams.
                try? await Task.sleep(for: .seconds(120))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        let (tone, counters) = try #require(result, "no result within 120 s")
        #expect(tone == 440)
        #expect(counters.count == 25)
        #expect(zip(counters, counters.dropFirst()).allSatisfy { $0 < $1 }, "\(counters)")
    }
}
