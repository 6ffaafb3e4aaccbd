import Foundation
import Synchronization
import TernPeer
import TernTrace

/// One line of media statistics per second, from the receiving side's W3C stats report.
enum StatsLine {
    /// Byte totals at the previous sample, to turn counters into bit rates.
    struct Totals: Sendable { var received = 0; var sent = 0; var framesDecoded = 0 }

    /// Logs a stats line each second (what `receiver` received, `sender` sent) into `samples`
    /// until `finish()`, which takes one last sample for the part of a second since the last one
    /// (so the report's per-second series add up to the call's totals). On a terminal it also
    /// keeps a progress line up to date: elapsed (and remaining, when the call has a planned
    /// `length`) time and the live counters.
    static func everySecond(receiver: CallParticipant, sender: CallParticipant, timeline: Timeline,
                            into samples: SampleLog, length: Duration? = nil) -> Sampler {
        let sampler = Sampler(receiver: receiver, sender: sender, timeline: timeline, samples: samples)
        sampler.task = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                guard !Task.isCancelled else { return }
                let second = sampler.sample()
                timeline.progress(progressText(second: second, length: length, receiver: receiver))
            }
        }
        return sampler
    }

    /// The per-second sampling of one call (see `everySecond`).
    final class Sampler: @unchecked Sendable {
        // `task` is set once right after init, before anything else can read it.
        fileprivate var task: Task<Void, Never>?
        private let receiver: CallParticipant, sender: CallParticipant
        private let timeline: Timeline
        private let samples: SampleLog
        private let state = Mutex<(second: Int, totals: Totals, started: ContinuousClock.Instant, finished: Bool)>(
            (0, Totals(), ContinuousClock.now, false))

        fileprivate init(receiver: CallParticipant, sender: CallParticipant, timeline: Timeline, samples: SampleLog) {
            self.receiver = receiver
            self.sender = sender
            self.timeline = timeline
            self.samples = samples
        }

        /// One sample now; returns its second. Nothing once `finish` has run.
        @discardableResult
        fileprivate func sample() -> Int {
            state.withLock { state in
                guard !state.finished else { return state.second }
                take(&state, at: Double(state.second + 1))
                return state.second
            }
        }

        private func take(_ state: inout (second: Int, totals: Totals, started: ContinuousClock.Instant, finished: Bool),
                          at time: Double) {
            state.second += 1
            if let sample = StatsLine.log(second: state.second, at: time, receiver: receiver, sender: sender,
                                          timeline: timeline, previous: &state.totals) {
                samples.append(sample)
            }
        }

        /// Stops sampling, after one last sample for the time since the previous one.
        func finish() {
            task?.cancel()
            state.withLock { state in
                guard !state.finished else { return }
                state.finished = true
                let elapsed = ContinuousClock.now - state.started
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                if seconds > Double(state.second) + 0.05 { take(&state, at: seconds) }
            }
        }
    }

    /// "12 s of 30 s (18 s left) · bob in: audio 600 pkts, 440 Hz · video 350 frames".
    static func progressText(second: Int, length: Duration?, receiver: CallParticipant) -> String {
        var text = "\(second) s"
        if let length {
            let total = Int((Double(length.components.seconds) + Double(length.components.attoseconds) / 1e18).rounded())
            text += " of \(total) s (\(max(0, total - second)) s left)"
        }
        guard let report = receiver.snapshot.peer?.getStats() else { return text }
        text += " · \(receiver.name) in:"
        if let audio = report.inbound(.audio) {
            text += " audio \(audio.counters.packetsReceived) pkts" + (receiver.detectedToneHz.map { ", \(Int($0)) Hz" } ?? "")
        }
        if let frames = report.inbound(.video)?.framesDecoded { text += " · video \(frames) frames" }
        let messages = report.dataChannels.map(\.messagesReceived).reduce(0, +)
        if !report.dataChannels.isEmpty { text += " · \(messages) messages" }
        return text
    }

    static func log(second: Int, at time: Double, receiver: CallParticipant, sender: CallParticipant, timeline: Timeline,
                    previous: inout Totals) -> CallStatsSample? {
        guard let peer = receiver.snapshot.peer else { return nil }
        let report = peer.getStats()
        let audio = report.inbound(.audio)?.counters, video = report.inbound(.video)
        let senderReport = sender.snapshot.peer?.getStats()
        let rtt = senderReport?.remoteInboundRTP.compactMap(\.counters.roundTripTime).first
        // The sending side's SCTP association: window, RTT, repairs.
        let sctp = senderReport?.sctpTransport
        let audioPackets = Int(audio?.packetsReceived ?? 0), audioBytes = Int(audio?.bytesReceived ?? 0)
        let audioLost = Int(audio?.packetsLost ?? 0), videoLost = Int(video?.counters.packetsLost ?? 0)
        let videoPackets = Int(video?.counters.packetsReceived ?? 0), framesDecoded = video?.framesDecoded ?? 0
        let jitterMs = (audio?.jitter ?? 0) * 1000
        let tone = receiver.detectedToneHz.map { "\(Int($0)) Hz" } ?? "-"
        var text = "t=\(second)s \(receiver.name) receives: audio \(audioPackets) pkts \(audioBytes) B"
        text += " lost \(audioLost) jitter \(String(format: "%.2f", jitterMs)) ms tone \(tone)"
        text += " | video \(videoPackets) pkts, \(framesDecoded) frames decoded"
        text += " | rtt \(rtt.map { String(format: "%.2f ms", $0 * 1000) } ?? "-")"
        let sctpRttMs = sctp?.smoothedRoundTripTime.map { $0 * 1000 }
        if let sctp {
            text += " | sctp \(sender.name) cwnd \(sctp.congestionWindow) B"
            text += " srtt \(sctpRttMs.map { String(format: "%.2f ms", $0) } ?? "-")"
            text += " retransmitted \(sctp.retransmittedChunks) chunks"
        }
        // The sending side's bandwidth estimate and what its video encoder is set to and sends.
        let estimate = senderReport?.candidatePair?.availableOutgoingBitrate
        let videoOut = senderReport?.outboundRTP.first { $0.kind == "video" }
        if let estimate {
            text += " | bwe \(sender.name) \(Int(estimate / 1000)) kbit/s"
            if let videoOut, let target = videoOut.targetBitrate {
                text += ", video \(Int(target / 1000)) kbit/s"
                if let width = videoOut.frameWidth, let height = videoOut.frameHeight { text += " \(width)x\(height)" }
                if let reason = videoOut.qualityLimitationReason, reason != "none" { text += " (limited: \(reason))" }
            }
        }
        if let freezes = video?.freezeCount, freezes > 0 {
            text += " | \(freezes) freezes \(String(format: "%.1f s", video?.totalFreezesDuration ?? 0))"
        }
        let received = report.inboundRTP.map { Int($0.counters.bytesReceived) }.reduce(0, +)
        let sent = senderReport?.outboundRTP.map { Int($0.counters.bytesSent) }.reduce(0, +) ?? 0
        defer { previous = Totals(received: received, sent: sent, framesDecoded: framesDecoded) }
        let sample = CallStatsSample(
            tSeconds: time, sentKbps: Double(sent - previous.sent) * 8 / 1000 / max(0.05, time - Double(second - 1)),
            receivedKbps: Double(received - previous.received) * 8 / 1000 / max(0.05, time - Double(second - 1)),
            packetsLost: Double(audioLost + videoLost), jitterMs: jitterMs,
            rttMs: rtt.map { $0 * 1000 }, framesDecoded: Double(max(0, framesDecoded - previous.framesDecoded)),
            audioLevel: receiver.audioLevel)
        timeline.log("stats", text, fields: [
            "second": .int(second),
            "audioPacketsReceived": .int(audioPackets),
            "audioBytesReceived": .int(audioBytes),
            "audioPacketsLost": .int(audioLost),
            "jitterMs": .number(jitterMs),
            "videoPacketsReceived": .int(videoPackets),
            "videoFramesDecoded": .int(framesDecoded),
            "rttMs": rtt.map { .number($0 * 1000) } ?? .null,
            "detectedToneHz": receiver.detectedToneHz.map { .number($0) } ?? .null,
            "sctpCongestionWindow": sctp.map { .int($0.congestionWindow) } ?? .null,
            "sctpSmoothedRttMs": sctpRttMs.map { .number($0) } ?? .null,
            "sctpRetransmittedChunks": sctp.map { .int($0.retransmittedChunks) } ?? .null,
            "sctpDataChunksBeyondWindow": sctp.map { .int($0.dataChunksBeyondWindow) } ?? .null,
            "availableOutgoingBitrate": estimate.map { .number($0) } ?? .null,
            "videoTargetBitrate": videoOut?.targetBitrate.map { .number($0) } ?? .null,
            "videoFrameWidthSent": videoOut?.frameWidth.map { .int($0) } ?? .null,
            "videoFrameHeightSent": videoOut?.frameHeight.map { .int($0) } ?? .null,
            "qualityLimitationReason": videoOut?.qualityLimitationReason.map { .string($0) } ?? .null,
            "videoFreezeCount": video?.freezeCount.map { .int($0) } ?? .null,
        ])
        return sample
    }
}

/// The per-second samples of a call, collected for the report's charts.
final class SampleLog: Sendable {
    private let samples = Mutex<[CallStatsSample]>([])

    func append(_ sample: CallStatsSample) { samples.withLock { $0.append(sample) } }

    var all: [CallStatsSample] { samples.withLock { $0 } }
}
