import ArgumentParser
import Foundation
import TernCall
import TernTrace

/// `tern call --loopback`: the main job — a full two-peer call with the debug tool's trace.
struct CallCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "call",
        abstract: "Place a call and print its timeline: SDP, ICE, DTLS, data channel, media stats.",
        discussion: """
            With --loopback, two call clients (alice and bob) run in this process and call each other \
            through an in-process signaling router (protocol v1), over real ICE, DTLS-SRTP and SCTP on \
            127.0.0.1: invite with attached data, ring, accept, tone and test-pattern video both ways, \
            manage-call events and sendMessage envelopes both ways, video removed and added back, hang-up. \
            Exit status 0 only if every step really happened.
            """)

    @Flag(help: "Two call clients on 127.0.0.1.")
    var loopback = false

    @Flag(help: "With --loopback: run the signaling server and the two peers as three processes (tern signal, tern peer ×2) talking over real WebSockets, instead of in this process.")
    var processes = false

    @Option(help: "How long media flows, in seconds.")
    var duration: Double = 4

    @Flag(inversion: .prefixedNo, help: "Send a tone both ways.")
    var audio = true

    @Flag(inversion: .prefixedNo, help: "Send test-pattern video both ways (and remove/re-add it mid-call).")
    var video = true

    @Flag(inversion: .prefixedNo, help: "Exchange manage-call events and sendMessage envelopes.")
    var data = true

    @Option(help: ArgumentHelp("With --loopback: a group call of N members (3–8; video up to 4) in one full mesh instead of a one-to-one call.", valueName: "N"))
    var group: Int?

    @Flag(help: "One JSON object per line; the last line is the summary.")
    var json = false

    @OptionGroup var trace: TraceOptions

    @Option(name: .customLong("break"), help: "Break one step on purpose to see the failure explained: fingerprint | ice.")
    var breakStep: String?

    func run() async throws {
        guard loopback else {
            throw ValidationError("only --loopback is implemented: two peers on 127.0.0.1 (for one peer against a signaling server, use `tern peer`)")
        }
        guard duration >= 1.5, duration <= 3600 else { throw ValidationError("--duration must be between 1.5 and 3600 seconds") }
        var breakStep: LoopbackCall.BreakStep?
        if let name = self.breakStep {
            guard let step = LoopbackCall.BreakStep(rawValue: name) else {
                throw ValidationError("--break takes one of: \(LoopbackCall.BreakStep.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            breakStep = step
        }
        if let group {
            guard (3...8).contains(group) else { throw ValidationError("--group takes 3 to 8 members") }
            guard !processes, breakStep == nil, !trace.anyGiven else {
                throw ValidationError("--group runs in this process, without --processes, --break or trace options")
            }
            let withVideo = video && group <= CallConfiguration().maxVideoMeshMembers
            let timeline = Timeline(json: json)
            timeline.log("tern", "tern call --loopback --group \(group): alice invites \(group - 1) members into one call on 127.0.0.1"
                + (withVideo ? "" : " (audio only: a video mesh stops at \(CallConfiguration().maxVideoMeshMembers))"))
            var call = LoopbackGroupCall(size: group, duration: .milliseconds(Int(duration * 1000)), video: withVideo,
                                         timeline: timeline)
            let (summary, text) = await call.run()
            timeline.summary(summary, text: text)
            if !call.steps.allPassed { throw ExitCode(1) }
            return
        }
        if processes {
            guard !trace.anyGiven, breakStep == nil else {
                throw ValidationError("--processes runs the peers as children: use tern peer's own --pcap/--report/--stats-interval there; --break is for the in-process call")
            }
            let timeline = Timeline(json: json)
            timeline.log("tern", "tern call --loopback --processes: tern signal, tern peer bob, tern peer alice on 127.0.0.1")
            let (summary, text, passed) = await ProcessCall(
                options: .init(duration: duration, audio: audio, video: video, data: data), timeline: timeline).run()
            timeline.summary(summary, text: text)
            if !passed { throw ExitCode(1) }
            return
        }
        let capture = try trace.openCapture()
        let timeline = Timeline(json: json)
        timeline.log("tern", "tern call --loopback: alice calls bob on 127.0.0.1"
            + (breakStep.map { " (breaking \($0.rawValue) on purpose)" } ?? ""))
        var call = LoopbackCall(
            options: .init(duration: .milliseconds(Int(duration * 1000)), audio: audio, video: video, data: data,
                           breakStep: breakStep, capture: capture,
                           statsInterval: trace.statsPeriod),
            timeline: timeline)
        let summary = await call.run()
        trace.finish(capture: capture, timeline: timeline) {
            CallReportBuilder.report(summary, timeline: timeline, samples: call.samples.all)
        }
        timeline.summary(summary.json, text: summary.text)
        if !summary.steps.allPassed { throw ExitCode(1) }
    }
}
