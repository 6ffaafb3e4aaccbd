/// The page's only stylesheet, inlined in `<style>`: no fonts, images or URLs.
/// Contains no `<` or `&`, so the page stays well-formed XML.
enum ReportStyle {
    static let css = """
        body { font-family: system-ui, sans-serif; margin: 1.5em auto; max-width: 1340px; color: #222; }
        h1 { margin-bottom: 0.2em; }
        h2 { border-bottom: 1px solid #ccc; padding-bottom: 0.2em; margin-top: 1.6em; }
        .generated { color: #666; margin-top: 0; }
        nav a { margin-right: 1em; }
        .summary { border: 1px solid #9ab; background: #f4f8fb; border-radius: 6px; padding: 0.6em 1em; }
        .summary dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.2em 1.2em; margin: 0; }
        .summary dt { font-weight: 600; }
        .summary dd { margin: 0; }
        table { border-collapse: collapse; margin: 0.5em 0; }
        th, td { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: left; vertical-align: top; }
        th { background: #eef; }
        td.num { text-align: right; font-variant-numeric: tabular-nums; }
        tr.selected td { background: #e6f6e6; font-weight: 600; }
        pre { background: #f7f7f7; border: 1px solid #ddd; padding: 0.6em; overflow-x: auto; }
        .charts { display: flex; flex-wrap: wrap; gap: 1em; }
        svg.chart { border: 1px solid #ddd; background: #fff; font-size: 11px; }
        svg.chart .chart-title { font-size: 14px; font-weight: 600; }
        svg.chart .grid { stroke: #eee; }
        svg.chart .axis { stroke: #333; }
        svg.chart .no-data { fill: #999; font-size: 16px; }
        .empty { color: #888; font-style: italic; }
        """
}
