import Foundation
import Testing

/// `tern ice` run as a user runs it.
@Suite("tern ice (subprocess)")
struct TernICECommandTests {
    @Test("gather --ice-address 127.0.0.1 --json: credentials, one host candidate, gathering complete, the trace")
    func gatherOnLoopbackAsJSON() async throws {
        let run = try await TernCallCommandTests.run(["ice", "gather", "--ice-address", "127.0.0.1", "--json"], limit: .seconds(30))
        #expect(run.status == 0)
        let text = run.lines.joined(separator: "\n")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "not JSON: \(text.prefix(200))")
        let credentials = try #require(report["credentials"] as? [String: Any])
        #expect((credentials["ufrag"] as? String)?.count ?? 0 >= 4)
        #expect((credentials["pwd"] as? String)?.count ?? 0 >= 22)
        let candidates = try #require(report["candidates"] as? [[String: Any]])
        #expect(candidates.count == 1)
        #expect(candidates.first?["address"] as? String == "127.0.0.1")
        #expect(candidates.first?["type"] as? String == "host")
        #expect(report["complete"] as? Bool == true)
        #expect(((report["trace"] as? [String: Any])?["entries"] as? [Any])?.isEmpty == false)
    }

    @Test("gather without --json prints SDP attribute lines ending with a=end-of-candidates")
    func gatherPrintsSDPLines() async throws {
        let run = try await TernCallCommandTests.run(["ice", "gather", "--ice-address", "127.0.0.1"], limit: .seconds(30))
        #expect(run.status == 0)
        #expect(run.lines.first?.hasPrefix("a=ice-ufrag:") == true)
        #expect(run.lines.contains { $0.hasPrefix("a=candidate:") && $0.contains(" 127.0.0.1 ") && $0.contains(" typ host") })
        #expect(run.lines.last == "a=end-of-candidates")
    }
}
