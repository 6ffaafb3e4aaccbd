public import Foundation

/// Renders a `CallReport` as one self-contained HTML page.
///
/// The page loads nothing: CSS is inline, charts are inline SVG, there is no
/// script. Every string from the report is escaped (`HTMLText`), and the output
/// is well-formed XML as well as HTML5, so tests and tools can parse it.
///
/// Sections, in order: summary box, per-second charts, timeline, ICE
/// candidates and selected pair, DTLS, offer/answer SDP (collapsed `<details>`).
///
/// ```swift
/// let report = CallReport(title: "tern call", generatedAt: Date(),
///                         summary: [ReportField("Duration", "12 s")],
///                         charts: StatsChart.standardCharts(from: samples))
/// try HTMLReportRenderer.write(report, to: URL(fileURLWithPath: "call.html"))
/// ```
public struct HTMLReportRenderer: Sendable {
    /// A renderer with the default chart size (640 × 260).
    public init() {}

    /// Renders `report` as a complete HTML document.
    public static func render(_ report: CallReport) -> String {
        HTMLReportRenderer().render(report)
    }

    /// Renders `report` as a complete HTML document.
    public func render(_ report: CallReport) -> String {
        let title = HTMLText.escape(report.title)
        let generated = HTMLText.escape(report.generatedAt.formatted(.iso8601))
        var page = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8"/>
            <meta name="viewport" content="width=device-width, initial-scale=1"/>
            <title>\(title)</title>
            <style>
            \(ReportStyle.css)
            </style>
            </head>
            <body>
            <h1>\(title)</h1>
            <p class="generated">Generated \(generated)</p>
            <nav><a href="#summary">Summary</a><a href="#charts">Charts</a><a href="#timeline">Timeline</a>\
            <a href="#ice">ICE</a><a href="#dtls">DTLS</a><a href="#sdp">SDP</a></nav>

            """
        page += summarySection(report.summary)
        page += chartsSection(report.charts)
        page += timelineSection(report.timeline)
        page += iceSection(report.candidates, selectedPair: report.selectedPair)
        page += dtlsSection(report.dtls)
        page += sdpSection(offer: report.offerSDP, answer: report.answerSDP)
        return page + "</body>\n</html>\n"
    }

    /// Writes the rendered page to `url` as UTF-8, readable by its owner only (0600: it holds
    /// the call's addresses and descriptions).
    /// - Throws: the file system's error when the file cannot be written.
    public static func write(_ report: CallReport, to url: URL) throws {
        try Data(render(report).utf8).write(to: url, options: .atomic)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
    }
}
