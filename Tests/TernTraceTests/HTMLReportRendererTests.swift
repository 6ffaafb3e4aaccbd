import Foundation
import Testing
@testable import TernTrace

@Suite("HTMLReportRenderer produces a parseable, self-contained, escaped page")
struct HTMLReportRendererTests {
    let report = ReportFixtures.report
    let html = HTMLReportRenderer.render(ReportFixtures.report)

    @Test("the whole page parses as XML with one html, head, body and every section")
    func wellFormed() throws {
        let page = ParsedPage(html)
        #expect(page.error == nil)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        for name in ["html", "head", "body", "style", "h1"] { #expect(page.all(name).count == 1, "\(name)") }
        let sections = page.all("section").compactMap { $0.attributes["id"] }
        #expect(sections == ["summary", "charts", "timeline", "ice", "dtls", "sdp"])
        #expect(page.all("details").count == 2)
    }

    @Test("every chart is an SVG with its title, axes, tick labels and legend")
    func chartsPresent() throws {
        let page = ParsedPage(html)
        let svgs = page.all("svg")
        #expect(svgs.map { $0.attributes["data-title"] } == report.charts.map(\.title))
        for chart in report.charts {
            #expect(page.all("text").contains { $0.attributes["class"] == "chart-title" && $0.text == chart.title })
        }
        #expect(page.all("g").filter { $0.attributes["class"] == "legend" }.count == report.charts.count)
        #expect(page.all("g").filter { $0.attributes["class"] == "axes" }.count == report.charts.count)
        #expect(page.all("text").filter { $0.attributes["class"]?.contains("tick") == true }.count >= 4 * svgs.count)
        #expect(page.all("polyline").count >= 7)
    }

    @Test("every finite data point is a circle whose data-value reads back exactly")
    func dataPointsExact() throws {
        let page = ParsedPage(html)
        let circles = page.all("circle")
        var expected: [(String, Double, Double)] = []
        for chart in report.charts {
            for series in chart.series {
                for point in series.points where point.value.isFinite {
                    expected.append((series.label, point.tSeconds, point.value))
                }
            }
        }
        #expect(circles.count == expected.count)
        for (circle, (label, t, value)) in zip(circles, expected) {
            #expect(circle.attributes["data-series"] == label)
            #expect(circle.attributes["data-t"].flatMap(Double.init) == t)
            #expect(circle.attributes["data-value"].flatMap(Double.init) == value)
        }
        // Spot checks against the fixture's formulas, not just the model.
        let bitrate = circles.filter { $0.attributes["data-series"] == "sent" }.compactMap { $0.attributes["data-value"] }
        #expect(bitrate == ["500.0", "512.5", "525.0", "537.5", "550.0", "562.5"])
        #expect(circles.filter { $0.attributes["data-series"] == "RTT" }.count == 5)
        #expect(circles.contains { $0.attributes["data-value"] == "1e-07" })
    }

    @Test("hostile strings come out escaped and read back as the original text")
    func escaping() throws {
        #expect(!html.contains("<script"))
        #expect(!html.contains("<img"))
        #expect(html.contains("&lt;script&gt;alert(&#39;x&#39; &amp; &quot;y&quot;)&lt;/script&gt;"))
        let page = ParsedPage(html)
        #expect(page.all("h1").first?.text == report.title)
        #expect(page.all("title").first?.text == report.title)
        #expect(page.all("pre").first?.text.contains(ReportFixtures.hostile) == true)
        #expect(page.all("td").contains { $0.text == "<img src=x>" })
        #expect(page.all("dd").contains { $0.text == ReportFixtures.hostile })
        #expect(HTMLText.escape("a\u{0}b\u{1B}c\td") == "a\u{FFFD}b\u{FFFD}c\td")
    }

    @Test("a=ice-pwd values are redacted and the written file is readable by its owner only")
    func secretsStayOut() throws {
        var report = ReportFixtures.report
        report.offerSDP = "v=0\r\na=ice-ufrag:abcd\r\na=ice-pwd:s3cretPasswordOf22chars\r\na=mid:0\r\n"
        let page = HTMLReportRenderer.render(report)
        #expect(!page.contains("s3cretPasswordOf22chars"))
        #expect(page.contains("a=ice-pwd:(redacted, 23 characters)") && page.contains("a=ice-ufrag:abcd"))
        let url = URL(fileURLWithPath: TestSupport.temporaryPath("html"))
        defer { try? FileManager.default.removeItem(at: url) }
        try HTMLReportRenderer.write(report, to: url)
        let mode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test("the page loads nothing from anywhere")
    func selfContained() {
        let withoutSVGNamespace = html.replacingOccurrences(of: "xmlns=\"http://www.w3.org/2000/svg\"", with: "")
        // Escaped hostile text may contain "src=x"; a real attribute would be quoted.
        for forbidden in ["http:", "https:", "<script", "<link", "<img", "src=\"", "href=\"h", "url(", "@import"] {
            #expect(!withoutSVGNamespace.contains(forbidden), "\(forbidden)")
        }
    }

    @Test("timeline, candidates, selected pair, DTLS and summary rows are all shown")
    func tables() {
        let page = ParsedPage(html)
        let timelineRows = page.all("tr").filter { $0.attributes["data-category"] != nil }
        #expect(timelineRows.map { $0.attributes["data-category"] } == ["signaling", "ice", "dtls<"])
        #expect(timelineRows.map(\.text).first == "0.0signalingoffer sent")
        #expect(page.all("tr").filter { $0.attributes["class"] == "selected" }.count == 1)
        #expect(page.all("strong").first?.text == report.selectedPair)
        #expect(page.all("td").contains { $0.text == "2130706431" })
        for field in report.dtls { #expect(page.all("th").contains { $0.text == field.key }) }
        #expect(page.all("dt").map(\.text) == report.summary.map(\.key))
    }

    @Test("an empty report still renders every section, with six empty standard charts")
    func emptyReport() {
        let empty = CallReport(title: "empty", generatedAt: Date(timeIntervalSince1970: 0),
                               charts: StatsChart.standardCharts(from: []))
        let page = ParsedPage(HTMLReportRenderer.render(empty))
        #expect(page.error == nil)
        #expect(page.all("svg").count == 6)
        #expect(page.all("text").filter { $0.attributes["class"] == "no-data" }.count == 6)
        #expect(page.all("circle").isEmpty)
        #expect(page.all("section").count == 6)
    }

    @Test("the report model round-trips through JSON")
    func codable() throws {
        var original = report
        original.charts.removeLast()        // NaN is not representable in JSON
        let decoded = try JSONDecoder().decode(CallReport.self, from: try JSONEncoder().encode(original))
        #expect(decoded == original)
    }
}
