extension StatsChart {
    /// The six standard call charts, always in this order and with these titles:
    /// "Bitrate" (kbit/s; series "sent", "received"), "Packets lost" (packets),
    /// "Jitter" (ms), "Round-trip time" (ms), "Frames decoded" (frames/s) and
    /// "Audio level" (0–1). A chart whose samples are all `nil` is still present and
    /// rendered empty ("no data"), so the page layout does not depend on the call.
    public static func standardCharts(from samples: [CallStatsSample]) -> [StatsChart] {
        func series(_ label: String, _ value: (CallStatsSample) -> Double?) -> StatsSeries {
            StatsSeries(label: label, points: samples.compactMap { sample in
                value(sample).map { StatsPoint(tSeconds: sample.tSeconds, value: $0) }
            })
        }
        return [
            StatsChart(title: "Bitrate", unit: "kbit/s",
                       series: [series("sent", \.sentKbps), series("received", \.receivedKbps)]),
            StatsChart(title: "Packets lost", unit: "packets", series: [series("lost", \.packetsLost)]),
            StatsChart(title: "Jitter", unit: "ms", series: [series("jitter", \.jitterMs)]),
            StatsChart(title: "Round-trip time", unit: "ms", series: [series("RTT", \.rttMs)]),
            StatsChart(title: "Frames decoded", unit: "frames/s", series: [series("decoded", \.framesDecoded)]),
            StatsChart(title: "Audio level", unit: "level (0–1)", series: [series("level", \.audioLevel)]),
        ]
    }
}
