import Foundation
import Testing
import TernTrace

/// Loads the page in a real browser engine and checks what it built from it.
@Suite("Headless Chromium renders the report",
       .enabled(if: TestSupport.executable("chromium") != nil,
                "chromium is not installed (not installed by the tests: it is large)"))
struct HTMLReportChromiumTests {
    @Test("the browser DOM holds every chart SVG and every data point, and no injected element")
    func domHasCharts() throws {
        let chromium = try #require(TestSupport.executable("chromium"))
        let report = ReportFixtures.report
        let path = TestSupport.temporaryPath("html")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try HTMLReportRenderer.write(report, to: URL(fileURLWithPath: path))

        let result = try TestSupport.run(chromium, [
            "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", URL(fileURLWithPath: path).absoluteString,
        ], timeout: 120)
        #expect(result.status == 0, "chromium failed: \(result.err.suffix(2000))")
        let dom = result.out
        #expect(occurrences(of: "<svg", in: dom) == report.charts.count)
        #expect(occurrences(of: "<polyline", in: dom) >= 7)
        #expect(!dom.contains("<script"), "escaped text must not become a script element")
        #expect(!dom.contains("<img"), "escaped text must not become an img element")

        let expected = report.charts.flatMap(\.series).flatMap(\.points).map(\.value).filter(\.isFinite)
        #expect(dataValues(in: dom) == expected)
    }

    private func occurrences(of needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    /// The `data-value` of every `<circle>` in the serialized DOM, in order.
    private func dataValues(in dom: String) -> [Double] {
        dom.components(separatedBy: "<circle").dropFirst().compactMap { element in
            guard let range = element.range(of: "data-value=\"") else { return nil }
            let rest = element[range.upperBound...]
            return rest.firstIndex(of: "\"").flatMap { Double(rest[..<$0]) }
        }
    }
}
