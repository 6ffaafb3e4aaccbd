import Foundation
import TernPeer

/// One line of media statistics per second, from the receiving side's W3C stats report.
enum StatsLine {
    static func log(second: Int, receiver: LoopbackParticipant, sender: LoopbackParticipant, timeline: Timeline) {
        guard let peer = receiver.snapshot.peer else { return }
        let report = peer.getStats()
        let inbound = report.entries(ofType: "inbound-rtp")
        let audio = inbound.first { $0["kind"] == .string("audio") }
        let video = inbound.first { $0["kind"] == .string("video") }
        let rtt = sender.snapshot.peer?.getStats().entries(ofType: "remote-inbound-rtp")
            .compactMap { $0["roundTripTime"]?.number }.first
        func int(_ entry: StatsReport.Entry?, _ key: String) -> Int { Int(entry?[key]?.number ?? 0) }
        let jitterMs = (audio?["jitter"]?.number ?? 0) * 1000
        let tone = receiver.detectedToneHz.map { "\(Int($0)) Hz" } ?? "-"
        var text = "t=\(second)s \(receiver.name) receives: audio \(int(audio, "packetsReceived")) pkts \(int(audio, "bytesReceived")) B"
        text += " lost \(int(audio, "packetsLost")) jitter \(String(format: "%.2f", jitterMs)) ms tone \(tone)"
        text += " | video \(int(video, "packetsReceived")) pkts, \(int(video, "framesDecoded")) frames decoded"
        text += " | rtt \(rtt.map { String(format: "%.2f ms", $0 * 1000) } ?? "-")"
        timeline.log("stats", text, fields: [
            "second": .int(second),
            "audioPacketsReceived": .int(int(audio, "packetsReceived")),
            "audioBytesReceived": .int(int(audio, "bytesReceived")),
            "audioPacketsLost": .int(int(audio, "packetsLost")),
            "jitterMs": .number(jitterMs),
            "videoPacketsReceived": .int(int(video, "packetsReceived")),
            "videoFramesDecoded": .int(int(video, "framesDecoded")),
            "rttMs": rtt.map { .number($0 * 1000) } ?? .null,
            "detectedToneHz": receiver.detectedToneHz.map { .number($0) } ?? .null,
        ])
    }
}
