import Foundation

/// A linear axis over "nice" round tick values (steps of 1, 2 or 5 × 10ⁿ).
struct ChartAxis: Equatable {
    /// Value at the axis start.
    let lower: Double
    /// Value at the axis end.
    let upper: Double
    /// Distance between ticks.
    let step: Double

    /// An axis covering `minimum...maximum` with about `targetTicks` intervals.
    /// An empty or degenerate range is widened so the axis always has length.
    init(covering minimum: Double, _ maximum: Double, targetTicks: Int = 5) {
        var low = minimum, high = maximum
        if !(low.isFinite && high.isFinite) { (low, high) = (0, 1) }
        if high <= low { (low, high) = (low - 1, low + 1) }
        let step = ChartAxis.niceStep((high - low) / Double(max(targetTicks, 1)))
        self.step = step
        self.lower = (low / step).rounded(.down) * step
        self.upper = (high / step).rounded(.up) * step
    }

    /// The tick values from `lower` to `upper` inclusive.
    var ticks: [Double] {
        let count = Int(((upper - lower) / step).rounded())
        return (0...max(count, 0)).map { lower + Double($0) * step }
    }

    /// Decimals needed to print the ticks without losing their difference.
    var decimals: Int {
        max(0, Int(-log10(step).rounded(.down)))
    }

    /// Where `value` falls between `start` (at `lower`) and `end` (at `upper`).
    func position(of value: Double, from start: Double, to end: Double) -> Double {
        start + (value - lower) / (upper - lower) * (end - start)
    }

    /// The smallest 1, 2 or 5 × 10ⁿ at least `raw`.
    static func niceStep(_ raw: Double) -> Double {
        guard raw > 0, raw.isFinite else { return 1 }
        let magnitude = pow(10, log10(raw).rounded(.down))
        for factor in [1.0, 2.0, 5.0, 10.0] where factor * magnitude >= raw * (1 - 1e-9) {
            return factor * magnitude
        }
        return 10 * magnitude
    }
}
