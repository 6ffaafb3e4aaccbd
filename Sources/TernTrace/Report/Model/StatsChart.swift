/// One per-second chart: a title, the unit of its y axis, and one line per series.
public struct StatsChart: Codable, Sendable, Equatable {
    /// Chart title, e.g. "Bitrate".
    public var title: String
    /// The y-axis unit, e.g. "kbit/s" (the x axis is always seconds since call start).
    public var unit: String
    /// The lines drawn, each with its own colour and legend entry (e.g. "sent", "received").
    public var series: [StatsSeries]

    /// A chart from its parts.
    public init(title: String, unit: String, series: [StatsSeries]) {
        self.title = title
        self.unit = unit
        self.series = series
    }
}
