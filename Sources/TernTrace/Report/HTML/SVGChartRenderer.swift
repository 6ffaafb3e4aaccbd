/// Draws one `StatsChart` as a self-contained inline SVG.
///
/// Layout: title and legend on top, y axis with unit on the left, x axis in
/// seconds at the bottom, light grid lines at every tick. Each series is a
/// `<polyline>` plus one `<circle class="point">` per sample carrying the exact
/// numbers in `data-series`, `data-t` and `data-value` (shortest round-trip
/// decimal text), and a `<title>` tooltip. Non-finite samples are skipped.
struct SVGChartRenderer {
    /// Total drawing width in SVG user units.
    var width = 640.0
    /// Total drawing height in SVG user units.
    var height = 260.0
    /// Space around the plot area: left (y labels), right, top (title, legend), bottom (x labels).
    var margins = (left: 64.0, right: 16.0, top: 48.0, bottom: 44.0)

    /// Line colours, used in order and repeated.
    static let palette = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]

    /// The SVG element for `chart`; `id` must be unique in the page.
    func render(_ chart: StatsChart, id: String) -> String {
        let series = chart.series.map { ($0.label, $0.points.filter { $0.tSeconds.isFinite && $0.value.isFinite }) }
        let all = series.flatMap(\.1)
        let xAxis = ChartAxis(covering: all.map(\.tSeconds).min() ?? 0, all.map(\.tSeconds).max() ?? 1)
        let yAxis = ChartAxis(covering: min(0, all.map(\.value).min() ?? 0), all.map(\.value).max() ?? 1)
        let title = HTMLText.escape(chart.title)
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" class="chart" id="\(id)" width="\(Int(width))" \
            height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))" role="img" \
            aria-labelledby="\(id)-title" data-title="\(title)">
            <title id="\(id)-title">\(title) (\(HTMLText.escape(chart.unit)))</title>
            <text class="chart-title" x="\(margins.left)" y="18">\(title)</text>

            """
        svg += legend(series.map(\.0))
        svg += axes(x: xAxis, y: yAxis, unit: chart.unit)
        if all.isEmpty {
            svg += "<text class=\"no-data\" x=\"\(fmt(width / 2))\" y=\"\(fmt(height / 2))\" "
                + "text-anchor=\"middle\">no data</text>\n"
        }
        for (index, (label, points)) in series.enumerated() {
            svg += line(label: label, points: points, unit: chart.unit, color: Self.palette[index % Self.palette.count],
                        x: xAxis, y: yAxis)
        }
        return svg + "</svg>"
    }

    private var plotLeft: Double { margins.left }
    private var plotRight: Double { width - margins.right }
    private var plotTop: Double { margins.top }
    private var plotBottom: Double { height - margins.bottom }

    /// One coloured swatch and label per series, left to right under the title.
    private func legend(_ labels: [String]) -> String {
        var out = "<g class=\"legend\">\n"
        for (index, label) in labels.enumerated() {
            let x = plotLeft + Double(index) * 130
            let color = Self.palette[index % Self.palette.count]
            out += "<rect x=\"\(fmt(x))\" y=\"26\" width=\"12\" height=\"12\" fill=\"\(color)\"/>"
            out += "<text x=\"\(fmt(x + 16))\" y=\"36\">\(HTMLText.escape(label))</text>\n"
        }
        return out + "</g>\n"
    }

    /// Grid lines, tick labels, both axis lines and their titles.
    private func axes(x: ChartAxis, y: ChartAxis, unit: String) -> String {
        var out = "<g class=\"axes\">\n"
        for tick in y.ticks {
            let py = fmt(y.position(of: tick, from: plotBottom, to: plotTop))
            out += "<line class=\"grid\" x1=\"\(fmt(plotLeft))\" y1=\"\(py)\" x2=\"\(fmt(plotRight))\" y2=\"\(py)\"/>"
            out += "<text class=\"tick y-tick\" x=\"\(fmt(plotLeft - 6))\" y=\"\(py)\" text-anchor=\"end\" "
                + "dominant-baseline=\"middle\">\(NumberText.fixed(tick, decimals: y.decimals))</text>\n"
        }
        for tick in x.ticks {
            let px = fmt(x.position(of: tick, from: plotLeft, to: plotRight))
            out += "<line class=\"grid\" x1=\"\(px)\" y1=\"\(fmt(plotTop))\" x2=\"\(px)\" y2=\"\(fmt(plotBottom))\"/>"
            out += "<text class=\"tick x-tick\" x=\"\(px)\" y=\"\(fmt(plotBottom + 16))\" text-anchor=\"middle\">"
                + "\(NumberText.fixed(tick, decimals: x.decimals))</text>\n"
        }
        out += "<line class=\"axis\" x1=\"\(fmt(plotLeft))\" y1=\"\(fmt(plotBottom))\" x2=\"\(fmt(plotRight))\" "
            + "y2=\"\(fmt(plotBottom))\"/>"
        out += "<line class=\"axis\" x1=\"\(fmt(plotLeft))\" y1=\"\(fmt(plotTop))\" x2=\"\(fmt(plotLeft))\" "
            + "y2=\"\(fmt(plotBottom))\"/>\n"
        out += "<text class=\"axis-label\" x=\"\(fmt((plotLeft + plotRight) / 2))\" y=\"\(fmt(height - 6))\" "
            + "text-anchor=\"middle\">time (s)</text>\n"
        let midY = fmt((plotTop + plotBottom) / 2)
        out += "<text class=\"axis-label\" x=\"14\" y=\"\(midY)\" text-anchor=\"middle\" "
            + "transform=\"rotate(-90 14 \(midY))\">\(HTMLText.escape(unit))</text>\n"
        return out + "</g>\n"
    }

    /// The polyline and point markers of one series.
    private func line(label: String, points: [StatsPoint], unit: String, color: String,
                      x: ChartAxis, y: ChartAxis) -> String {
        let label = HTMLText.escape(label), unit = HTMLText.escape(unit)
        let coordinates = points.map {
            (fmt(x.position(of: $0.tSeconds, from: plotLeft, to: plotRight)),
             fmt(y.position(of: $0.value, from: plotBottom, to: plotTop)))
        }
        var out = "<g class=\"series\" data-series=\"\(label)\">\n"
        if points.count > 1 {
            out += "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\" points=\""
                + coordinates.map { "\($0.0),\($0.1)" }.joined(separator: " ") + "\"/>\n"
        }
        for (point, (cx, cy)) in zip(points, coordinates) {
            let t = NumberText.exact(point.tSeconds), v = NumberText.exact(point.value)
            out += "<circle class=\"point\" cx=\"\(cx)\" cy=\"\(cy)\" r=\"3\" fill=\"\(color)\" "
                + "data-series=\"\(label)\" data-t=\"\(t)\" data-value=\"\(v)\">"
                + "<title>\(label) at \(NumberText.readable(point.tSeconds)) s: "
                + "\(NumberText.readable(point.value)) \(unit)</title></circle>\n"
        }
        return out + "</g>\n"
    }

    private func fmt(_ value: Double) -> String { NumberText.fixed(value, decimals: 2) }
}
