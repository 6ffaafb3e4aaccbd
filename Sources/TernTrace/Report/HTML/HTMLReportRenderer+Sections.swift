import Foundation
import TernCore

/// The page sections, one function each; every value goes through `HTMLText.escape`.
extension HTMLReportRenderer {
    func summarySection(_ rows: [ReportField]) -> String {
        "<section id=\"summary\"><h2>Summary</h2>\n<div class=\"summary\">"
            + (rows.isEmpty ? empty("No summary.") : definitionList(rows)) + "</div></section>\n"
    }

    func chartsSection(_ charts: [StatsChart]) -> String {
        let renderer = SVGChartRenderer()
        let body = charts.enumerated().map { renderer.render($0.element, id: "chart-\($0.offset)") }
        return "<section id=\"charts\"><h2>Per-second charts</h2>\n<div class=\"charts\">\n"
            + (charts.isEmpty ? empty("No statistics were sampled.") : body.joined(separator: "\n"))
            + "\n</div></section>\n"
    }

    func timelineSection(_ entries: [TimelineEntry]) -> String {
        let rows = entries.map { entry in
            "<tr data-category=\"\(HTMLText.escape(entry.category))\"><td class=\"num\">"
                + "\(NumberText.fixed(entry.tMs, decimals: 1))</td><td>\(HTMLText.escape(entry.category))</td>"
                + "<td>\(HTMLText.escape(entry.message))</td></tr>"
        }
        return "<section id=\"timeline\"><h2>Timeline</h2>\n"
            + (entries.isEmpty ? empty("No events.")
                : table(header: ["t (ms)", "Category", "Event"], rows: rows))
            + "</section>\n"
    }

    func iceSection(_ candidates: [CandidateRow], selectedPair: String?) -> String {
        let rows = candidates.map { row in
            "<tr\(row.isSelected ? " class=\"selected\"" : "")><td>\(row.side.rawValue)</td>"
                + "<td>\(HTMLText.escape(row.type))</td><td>\(HTMLText.escape(row.transport))</td>"
                + "<td>\(HTMLText.escape(row.address))</td><td class=\"num\">\(row.port)</td>"
                + "<td class=\"num\">\(row.priority)</td><td>\(row.isSelected ? "yes" : "")</td></tr>"
        }
        let pair = selectedPair.map { "<p>Selected pair: <strong>\(HTMLText.escape($0))</strong></p>\n" }
            ?? empty("No candidate pair was selected.")
        return "<section id=\"ice\"><h2>ICE candidates</h2>\n" + pair
            + (candidates.isEmpty ? empty("No candidates.")
                : table(header: ["Side", "Type", "Protocol", "Address", "Port", "Priority", "Selected"], rows: rows))
            + "</section>\n"
    }

    func dtlsSection(_ rows: [ReportField]) -> String {
        "<section id=\"dtls\"><h2>DTLS</h2>\n"
            + (rows.isEmpty ? empty("No DTLS information.") : table(header: ["Property", "Value"], rows: rows.map {
                "<tr><th>\(HTMLText.escape($0.key))</th><td><code>\(HTMLText.escape($0.value))</code></td></tr>"
            }))
            + "</section>\n"
    }

    /// Offer and answer, each collapsed; CRLF line ends are shown as plain newlines.
    func sdpSection(offer: String?, answer: String?) -> String {
        func block(_ name: String, _ sdp: String?) -> String {
            guard let sdp else { return empty("No \(name.lowercased()).") }
            let text = LogText.redactingICEPasswords(sdp.replacingOccurrences(of: "\r\n", with: "\n"))
            return "<details class=\"sdp\"><summary>\(name) (\(text.split(separator: "\n").count) lines)</summary>\n"
                + "<pre>\(HTMLText.escape(text))</pre></details>\n"
        }
        return "<section id=\"sdp\"><h2>Session descriptions</h2>\n" + block("Offer", offer) + block("Answer", answer)
            + "</section>\n"
    }

    private func definitionList(_ rows: [ReportField]) -> String {
        "<dl>" + rows.map { "<dt>\(HTMLText.escape($0.key))</dt><dd>\(HTMLText.escape($0.value))</dd>" }.joined()
            + "</dl>"
    }

    private func table(header: [String], rows: [String]) -> String {
        "<table><thead><tr>" + header.map { "<th>\(HTMLText.escape($0))</th>" }.joined() + "</tr></thead>\n<tbody>\n"
            + rows.joined(separator: "\n") + "\n</tbody></table>\n"
    }

    private func empty(_ text: String) -> String {
        "<p class=\"empty\">\(HTMLText.escape(text))</p>\n"
    }
}
