/// One line of a chart.
public struct StatsSeries: Codable, Sendable, Equatable {
    /// The legend label, e.g. "sent" or "received".
    public var label: String
    /// The samples, drawn in this order. Non-finite values (NaN, ±∞) are skipped.
    public var points: [StatsPoint]

    /// A series from its label and samples.
    public init(label: String, points: [StatsPoint]) {
        self.label = label
        self.points = points
    }
}
