import Foundation
import TernPeer

/// The last line of `tern call`: what happened, with the numbers that prove it.
struct CallSummary {
    var steps: StepLog
    var setupMs: Double?
    var callerStates: [String] = []
    var calleeStates: [String] = []
    var localCandidateType: String?
    var remoteCandidateType: String?
    var srtpProfile: String?
    var cipherSuite: String?
    var audioPacketsReceived = 0
    var detectedToneHz: Double?
    var videoFramesDecoded = 0
    var messagesReceived = 0
    var offerSDP: String?
    var answerSDP: String?
    var selectedPair: String?
    var dtlsDescription: String?
    var localCandidate: (address: String, port: Int, transport: String, priority: UInt32)?
    var remoteCandidate: (address: String, port: Int, transport: String, priority: UInt32)?

    init(steps: StepLog) { self.steps = steps }

    /// Reads the figures from both sides: media as received by bob from alice, the data
    /// channel's messages at both ends.
    init(steps: StepLog, setupMs: Double?, caller: LoopbackParticipant, callee: LoopbackParticipant) {
        self.steps = steps
        self.setupMs = setupMs
        callerStates = caller.snapshot.callStates
        calleeStates = callee.snapshot.callStates
        if let peer = caller.snapshot.peer {
            localCandidateType = peer.selectedCandidatePair?.local.type.rawValue
            remoteCandidateType = peer.selectedCandidatePair?.remote.type.rawValue
            srtpProfile = peer.dtlsConnectionInfo?.srtpProfile?.openSSLName
            cipherSuite = peer.dtlsConnectionInfo?.cipherSuite
            dtlsDescription = peer.dtlsConnectionInfo?.description
            if let pair = peer.selectedCandidatePair {
                selectedPair = "\(pair.local) ↔ \(pair.remote)"
                localCandidate = (pair.local.address, Int(pair.local.port), pair.local.transport.rawValue, pair.local.priority)
                remoteCandidate = (pair.remote.address, Int(pair.remote.port), pair.remote.transport.rawValue, pair.remote.priority)
            }
        }
        let tracks = callee.snapshot.tracks
        let calleeStats = callee.snapshot.peer?.getStats()
        let audio = calleeStats?.entries(ofType: "inbound-rtp").first { $0["kind"] == .string("audio") }
        audioPacketsReceived = Int(audio?["packetsReceived"]?.number ?? 0)
        detectedToneHz = callee.detectedToneHz
        videoFramesDecoded = tracks.filter { $0.info.kind == .video }.map(\.framesDecoded).reduce(0, +)
        messagesReceived = caller.snapshot.manageEvents.count + callee.snapshot.manageEvents.count
    }

    var json: JSONValue {
        func string(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
        return .object([
            "summary": .bool(true),
            "result": .string(steps.result),
            "callStates": .array(callerStates.map { .string($0) }),
            "calleeCallStates": .array(calleeStates.map { .string($0) }),
            "setupMs": setupMs.map { .number(($0 * 10).rounded() / 10) } ?? .null,
            "ice": .object(["selectedPair": .object([
                "local": .object(["type": string(localCandidateType)]),
                "remote": .object(["type": string(remoteCandidateType)]),
            ])]),
            "dtls": .object(["srtpProfile": string(srtpProfile), "cipherSuite": string(cipherSuite)]),
            "media": .object([
                "audio": .object(["packetsReceived": .int(audioPacketsReceived),
                                  "detectedToneHz": detectedToneHz.map { .number($0) } ?? .null]),
                "video": .object(["framesDecoded": .int(videoFramesDecoded)]),
            ]),
            "dataChannel": .object(["messagesReceived": .int(messagesReceived)]),
            "steps": .array(steps.steps.map { .object(["name": .string($0.name), "passed": .bool($0.passed), "detail": .string($0.detail)]) }),
        ])
    }

    var text: String {
        var lines = ["", "Summary"]
        for step in steps.steps {
            lines.append("  \(step.passed ? "✔" : "✘") \(step.name.padding(toLength: 14, withPad: " ", startingAt: 0)) \(step.detail)")
        }
        lines.append("  call states (alice): \(callerStates.joined(separator: " → "))")
        lines.append("  call states (bob):   \(calleeStates.joined(separator: " → "))")
        if let setupMs { lines.append(String(format: "  setup: %.1f ms (invite → IN_PROGRESS)", setupMs)) }
        lines.append("  ICE pair: \(localCandidateType ?? "-") ↔ \(remoteCandidateType ?? "-"); DTLS \(cipherSuite ?? "-"), SRTP \(srtpProfile ?? "-")")
        lines.append("  bob received \(audioPacketsReceived) audio packets, tone \(detectedToneHz.map { "\(Int($0)) Hz" } ?? "-"), \(videoFramesDecoded) video frames decoded")
        lines.append("  manage-call messages received: \(messagesReceived)")
        lines.append("  result: \(steps.result)")
        return lines.joined(separator: "\n")
    }
}
