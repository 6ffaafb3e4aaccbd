import Testing
@testable import TernTrace

@Suite("ChartAxis picks round tick values")
struct ChartAxisTests {
    @Test("steps are 1, 2 or 5 times a power of ten", arguments: [
        (0.7, 1.0), (1.0, 1.0), (1.3, 2.0), (3.0, 5.0), (7.0, 10.0), (0.013, 0.02), (240.0, 500.0),
    ])
    func niceStep(raw: Double, step: Double) {
        #expect(abs(ChartAxis.niceStep(raw) - step) < step * 1e-12)
    }

    @Test("the axis covers the data and starts and ends on ticks")
    func covers() {
        let axis = ChartAxis(covering: 0, 562.5)
        #expect(axis.lower == 0 && axis.upper == 600 && axis.step == 200)
        #expect(axis.ticks == [0, 200, 400, 600])
        #expect(axis.decimals == 0)
        let small = ChartAxis(covering: 0, 0.123456789)
        #expect(small.upper >= 0.123456789 && small.decimals == 2)
    }

    @Test("a single value or no finite value still gives an axis with length")
    func degenerate() {
        let single = ChartAxis(covering: 30, 30)
        #expect(single.lower < 30 && single.upper > 30)
        let none = ChartAxis(covering: .nan, .infinity)
        #expect(none.lower == 0 && none.upper == 1)
        #expect(single.position(of: single.lower, from: 10, to: 110) == 10)
        #expect(single.position(of: single.upper, from: 10, to: 110) == 110)
    }
}
