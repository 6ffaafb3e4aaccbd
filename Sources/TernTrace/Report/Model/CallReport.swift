public import Foundation

/// Everything the `--report FILE.html` page shows about one call.
///
/// Plain `Codable` values: the `tern` tool fills them in while the call runs (or
/// from a saved JSON trace) and hands the finished value to `HTMLReportRenderer`.
/// Every string is escaped when rendered, so any text is safe to put here.
public struct CallReport: Codable, Sendable, Equatable {
    /// Page title and top heading, e.g. "tern call alice → bob".
    public var title: String
    /// When the report was produced (shown in UTC, ISO 8601).
    public var generatedAt: Date
    /// The summary box rows, in display order (duration, codecs, totals, …).
    public var summary: [ReportField]
    /// Timestamped call events, in display order.
    public var timeline: [TimelineEntry]
    /// The SDP offer as sent or received, if any.
    public var offerSDP: String?
    /// The SDP answer as sent or received, if any.
    public var answerSDP: String?
    /// Local and remote ICE candidates.
    public var candidates: [CandidateRow]
    /// The nominated candidate pair, described in one line (e.g. "host 10.0.0.1:5000 ↔ srflx 1.2.3.4:6000").
    public var selectedPair: String?
    /// DTLS facts in display order: role, cipher, SRTP profile, local/remote fingerprints, …
    public var dtls: [ReportField]
    /// The per-second charts, in display order (see `StatsChart.standardCharts(from:)`).
    public var charts: [StatsChart]

    /// A report from its parts; every section may be empty.
    public init(title: String, generatedAt: Date, summary: [ReportField] = [], timeline: [TimelineEntry] = [],
                offerSDP: String? = nil, answerSDP: String? = nil, candidates: [CandidateRow] = [],
                selectedPair: String? = nil, dtls: [ReportField] = [], charts: [StatsChart] = []) {
        self.title = title
        self.generatedAt = generatedAt
        self.summary = summary
        self.timeline = timeline
        self.offerSDP = offerSDP
        self.answerSDP = answerSDP
        self.candidates = candidates
        self.selectedPair = selectedPair
        self.dtls = dtls
        self.charts = charts
    }
}
