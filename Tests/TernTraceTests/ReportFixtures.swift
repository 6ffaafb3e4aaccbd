import Foundation
import TernTrace

/// A report with known numbers and hostile strings, shared by the report tests.
enum ReportFixtures {
    static let samples: [CallStatsSample] = (0..<6).map { second in
        let t = Double(second)
        return CallStatsSample(tSeconds: t, sentKbps: 500 + 12.5 * t, receivedKbps: 480.25 - t,
                               packetsLost: second == 3 ? 4 : 0, jitterMs: 1.5 + 0.1 * t,
                               rttMs: second == 0 ? nil : 20 + t, framesDecoded: 30,
                               audioLevel: 0.123456789 * t / 5)
    }

    static let hostile = "<script>alert('x' & \"y\")</script>"

    static var report: CallReport {
        var charts = StatsChart.standardCharts(from: samples)
        charts.append(StatsChart(title: "Custom \(hostile)", unit: "u<nit>",
                                 series: [StatsSeries(label: "neg<ative>", points: [
                                     StatsPoint(tSeconds: 0.5, value: -3.25), StatsPoint(tSeconds: 1.5, value: 1e-7),
                                     StatsPoint(tSeconds: 2.5, value: .nan),
                                 ])]))
        return CallReport(
            title: "tern call \(hostile)",
            generatedAt: Date(timeIntervalSince1970: 1_700_000_000),
            summary: [ReportField("Duration", "6 s"), ReportField("Codec", "opus/48000/2"),
                      ReportField("Note", hostile)],
            timeline: [TimelineEntry(tMs: 0, category: "signaling", message: "offer sent"),
                       TimelineEntry(tMs: 12.5, category: "ice", message: "checking"),
                       TimelineEntry(tMs: 40, category: "dtls<", message: hostile)],
            offerSDP: "v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\na=x:\(hostile)\r\n",
            answerSDP: "v=0\r\no=- 3 4 IN IP4 127.0.0.1\r\ns=-\r\n",
            candidates: [
                CandidateRow(side: .local, type: "host", transport: "udp", address: "192.168.1.10", port: 50_000,
                             priority: 2_130_706_431, isSelected: true),
                CandidateRow(side: .remote, type: "srflx", transport: "udp", address: "<img src=x>", port: 6000,
                             priority: 1_694_498_815),
            ],
            selectedPair: "host 192.168.1.10:50000 <-> srflx 203.0.113.5:6000",
            dtls: [ReportField("Role", "client"), ReportField("Cipher", "ECDHE-ECDSA-AES128-GCM-SHA256"),
                   ReportField("SRTP profile", "SRTP_AEAD_AES_128_GCM"),
                   ReportField("Local fingerprint", "sha-256 AB:CD")],
            charts: charts)
    }
}
