import Foundation
import TernTrace
import ArgumentParser

/// What a call leaves behind for debugging (`tern call`, `tern peer`): the same names, the same
/// validation.
struct TraceOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Write this peer's decrypted RTP, RTCP and SCTP to a pcap file (tern call: alice's) (tshark -d udp.port==N,rtp).", valueName: "file"))
    var pcap: String?

    @Option(help: ArgumentHelp("Write a self-contained HTML report (timeline, SDPs, ICE, DTLS, charts) to this file.", valueName: "file.html"))
    var report: String?

    @Option(help: ArgumentHelp("Print the whole W3C stats report (getStats()) every this many seconds while the call is up.", valueName: "seconds"))
    var statsInterval: Double?

    /// True when any of them is given.
    var anyGiven: Bool { pcap != nil || report != nil || statsInterval != nil }

    /// `--stats-interval` as a duration.
    var statsPeriod: Duration? { statsInterval.map { .milliseconds(Int($0 * 1000)) } }

    func validate() throws {
        if let statsInterval, !(0.1...3600).contains(statsInterval) {
            throw ValidationError("--stats-interval must be between 0.1 and 3600 seconds")
        }
    }
}

extension TraceOptions {
    /// The pcap writer `--pcap` asks for, if any.
    func openCapture() throws -> CallCapture? {
        try pcap.map { try CallCapture(path: $0) }
    }

    /// After the call: closes the capture and writes the report, logging both on `timeline`.
    func finish(capture: CallCapture?, timeline: Timeline, report makeReport: () -> CallReport) {
        if let capture, let pcap {
            let (packets, failures) = capture.close()
            timeline.log("tern", "pcap: \(packets) decrypted packets written to \(pcap)" + (failures > 0 ? " (\(failures) not written)" : ""))
        }
        if let report {
            do {
                try HTMLReportRenderer.write(makeReport(), to: URL(fileURLWithPath: report))
                timeline.log("tern", "report written to \(report)")
            } catch {
                timeline.log("error", "could not write the report: \(error)")
            }
        }
    }
}
