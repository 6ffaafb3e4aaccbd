/// One sample of a series.
public struct StatsPoint: Codable, Sendable, Equatable {
    /// Seconds since the start of the call.
    public var tSeconds: Double
    /// The measured value, in the chart's unit.
    public var value: Double

    /// A sample at `tSeconds` with `value`.
    public init(tSeconds: Double, value: Double) {
        self.tSeconds = tSeconds
        self.value = value
    }
}
