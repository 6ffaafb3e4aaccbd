import Foundation
import TernTrace

/// `--report FILE.html`: the call as one self-contained page (timeline, SDPs, ICE pair, DTLS,
/// per-second charts drawn from the same samples the stats lines print).
enum CallReportBuilder {
    static func report(_ summary: CallSummary, title: String = "tern call --loopback", timeline: Timeline,
                       samples: [CallStatsSample]) -> CallReport {
        var fields = [ReportField("result", summary.steps.result)]
        // `tern call` reports media as bob received it; `tern peer` as it received it itself.
        let receiver: String
        if let peer = summary.peer {
            receiver = peer.user
            fields.append(ReportField("call states (\(peer.user), \(peer.role))", summary.callerStates.joined(separator: " → ")))
            if let remote = peer.remoteUser { fields.append(ReportField("remote user", remote)) }
        } else {
            receiver = "bob"
            fields.append(ReportField("call states (alice)", summary.callerStates.joined(separator: " → ")))
            fields.append(ReportField("call states (bob)", summary.calleeStates.joined(separator: " → ")))
        }
        if let setupMs = summary.setupMs { fields.append(ReportField("setup", String(format: "%.1f ms", setupMs))) }
        fields.append(ReportField("audio packets received (\(receiver))", "\(summary.audioPacketsReceived)"))
        fields.append(ReportField("tone detected (\(receiver))", summary.detectedToneHz.map { "\(Int($0)) Hz" } ?? "-"))
        fields.append(ReportField("video frames decoded (\(receiver))", "\(summary.videoFramesDecoded)"))
        if let peer = summary.peer {
            fields.append(ReportField("data-channel messages received", "\(summary.messagesReceived)"))
            fields.append(ReportField("data-channel messages echoed", "\(peer.messagesEchoed)"))
            if let echo = peer.echo { fields.append(ReportField("echo run", echo.text)) }
        } else {
            fields.append(ReportField("manage-call messages", "\(summary.messagesReceived)"))
        }
        for step in summary.steps.steps {
            fields.append(ReportField("\(step.passed ? "✔" : "✘") \(step.name)", step.detail))
        }
        // Every candidate of the reporting side, the selected pair's two highlighted (a candidate
        // learnt only from a check, prflx, appears through the selected pair alone).
        var candidates: [CandidateRow] = summary.candidates.map { entry in
            let selected = entry.local ? summary.localCandidate : summary.remoteCandidate
            let isSelected = selected.map {
                $0.address == entry.candidate.address && $0.port == Int(entry.candidate.port)
                    && $0.transport == entry.candidate.transport.lowercased()
            } ?? false
            return CandidateRow(side: entry.local ? .local : .remote, type: entry.candidate.type,
                                transport: entry.candidate.transport.lowercased(), address: entry.candidate.address,
                                port: Int(entry.candidate.port), priority: entry.candidate.priority, isSelected: isSelected)
        }
        if let local = summary.localCandidate, !candidates.contains(where: { $0.side == .local && $0.isSelected }) {
            candidates.append(CandidateRow(side: .local, type: summary.localCandidateType ?? "?", transport: local.transport,
                                           address: local.address, port: local.port, priority: local.priority, isSelected: true))
        }
        if let remote = summary.remoteCandidate, !candidates.contains(where: { $0.side == .remote && $0.isSelected }) {
            candidates.append(CandidateRow(side: .remote, type: summary.remoteCandidateType ?? "?", transport: remote.transport,
                                           address: remote.address, port: remote.port, priority: remote.priority, isSelected: true))
        }
        var dtls: [ReportField] = []
        if let cipher = summary.cipherSuite { dtls.append(ReportField("cipher suite", cipher)) }
        if let profile = summary.srtpProfile { dtls.append(ReportField("SRTP profile", profile)) }
        if let description = summary.dtlsDescription { dtls.append(ReportField("association", description)) }
        return CallReport(title: title, generatedAt: Date(), summary: fields, timeline: timeline.entries,
                          offerSDP: summary.offerSDP, answerSDP: summary.answerSDP, candidates: candidates,
                          selectedPair: summary.selectedPair, dtls: dtls,
                          charts: StatsChart.standardCharts(from: samples))
    }
}
