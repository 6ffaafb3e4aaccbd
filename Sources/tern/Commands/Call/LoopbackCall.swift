import Foundation
import Synchronization
import TernCall
import TernCore
import TernDTLS
import TernICE
import TernPeer
import TernSDP
import TernSignaling
import TernTrace

/// `tern call --loopback`: two call agents in one process, alice calling bob through an
/// in-process signaling switchboard (protocol v1 router), real ICE/DTLS/SRTP/SCTP on 127.0.0.1.
struct LoopbackCall {
    struct Options {
        var duration: Duration
        var audio: Bool
        var video: Bool
        var data: Bool
        var breakStep: BreakStep?
        var capture: CallCapture?
        /// `--stats-interval`: dump both sides' W3C stats reports this often (nil: never).
        var statsInterval: Duration?
    }

    /// A deliberate fault, to show how a failure is explained.
    enum BreakStep: String, CaseIterable {
        /// The offer's DTLS fingerprint is altered in transit: the handshake must fail.
        case fingerprint
        /// The offer's ICE password is altered in transit: connectivity checks must fail.
        case ice
    }

    let options: Options
    let timeline: Timeline
    var steps = StepLog()
    /// One stats sample per second (receiver bob, sender alice), for the report.
    let samples = SampleLog()

    init(options: Options, timeline: Timeline) {
        self.options = options
        self.timeline = timeline
    }

    /// Runs the call; returns the summary. Every step is recorded; the result is "ok" only if
    /// every step really happened.
    mutating func run() async -> CallSummary {
        let switchboard = SignalingSwitchboard()
        let timeouts = Task {
            while !Task.isCancelled {
                _ = switchboard.fireTimeouts()
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
        defer { timeouts.cancel() }

        let tamper = options.breakStep.map { SDPTamper(step: $0) }
        guard let alice = await makeParticipant("alice", tone: 440, switchboard: switchboard, tamper: tamper,
                                                capture: options.capture),
              let bob = await makeParticipant("bob", tone: 660, switchboard: switchboard, tamper: nil, capture: nil)
        else {
            steps.fail("signaling", "could not register alice and bob on the signaling switchboard")
            return CallSummary(steps: steps)
        }
        steps.pass("signaling", "alice and bob registered (protocol v1 router, in-process)")
        let watchers = [watch(alice, answering: false, capture: options.capture), watch(bob, answering: true, capture: nil)]
        defer { watchers.forEach { $0.cancel() } }

        let media = MediaOptions(audio: options.audio, video: options.video, data: true)
        let inviteTime = timeline.elapsedMilliseconds
        let callId: String
        do {
            callId = try await alice.agent.call(
                to: "bob", media: media,
                attachedData: [AttachedData(dataName: "processName", dataValue: "CustOnboarding")],
                timeout: .seconds(30), txCode: "tx-1")
        } catch {
            steps.fail("invite", "\(error)")
            return CallSummary(steps: steps)
        }
        timeline.log("call", "alice invites bob: call \(callId), attached processName=CustOnboarding, txCode tx-1")

        var summary = CallSummary(steps: steps)
        let connected = await waitFor(seconds: 15) {
            alice.snapshot.callStates.last == "IN_PROGRESS" && bob.snapshot.callStates.last == "IN_PROGRESS"
        }
        if connected {
            let setupMs = timeline.elapsedMilliseconds - inviteTime
            steps.pass("connect", String(format: "IN_PROGRESS on both sides %.1f ms after the invite", setupMs))
            timeline.logTransport(of: alice)
            await runMedia(alice, bob)
            // The figures are read while the call is up; hang-up releases the transports.
            summary = CallSummary(steps: steps, setupMs: setupMs, caller: alice, callee: bob)
        } else {
            steps.fail("connect", explainSetupFailure(alice, bob))
        }
        await hangUp(alice, bob)
        summary.offerSDP = alice.snapshot.offer
        summary.answerSDP = bob.snapshot.answer
        summary.steps = steps
        summary.callerStates = alice.snapshot.callStates
        summary.calleeStates = bob.snapshot.callStates
        return summary
    }

    /// Media both ways for the duration, with in-call events and a video round trip in the middle.
    private mutating func runMedia(_ alice: CallParticipant, _ bob: CallParticipant) async {
        let pumps = [MediaPump(for: alice), MediaPump(for: bob)]
        let statsTask = StatsLine.everySecond(receiver: bob, sender: alice, timeline: timeline, into: samples,
                                              length: options.duration)
        let dumpTask = options.statsInterval.map { StatsDump.every($0, participants: [alice, bob], timeline: timeline) }
        defer { dumpTask?.cancel() }
        // In-call events and the video round trip happen a third of the way in; media flows for
        // the whole duration.
        let clock = ContinuousClock()
        let mediaStart = clock.now
        try? await Task.sleep(for: options.duration / 3)
        if options.data { await exchangeManageCallEvents(alice, bob) }
        if options.video { await removeAndRestoreVideo(alice, bob) }
        try? await Task.sleep(until: mediaStart + options.duration)
        statsTask.finish()
        checkMedia(alice, bob)
        pumps.forEach { $0.stop() }
    }
}
