import Foundation
import TernICE
import TernSDP
import TernPeer

/// The last line of `tern call` and `tern peer`: what happened, with the numbers that prove it.
/// `tern call` observes both sides (media as bob received it); `tern peer` only its own side, so
/// `peer` is set and the callee fields stay empty.
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
    /// Size of the last picture decoded ("WIDTHxHEIGHT"), to compare with what the peer sent.
    var videoResolution: String?
    /// W3C freezes of the received video and its frame rate over the call (first to last frame).
    var videoFreezeCount: Int?
    var videoTotalFreezesDuration: Double?
    var videoFramesPerSecond: Double?
    /// The sender's last bandwidth estimate (W3C `availableOutgoingBitrate`), bit/s.
    var availableOutgoingBitrate: Double?
    var messagesReceived = 0
    var offerSDP: String?
    var answerSDP: String?
    var selectedPair: String?
    /// Why ICE selected that pair (`ICETrace.selection`).
    var selectionReason: String?
    /// Whether data (DTLS) left on a valid pair before ICE selected one (`ICEEvent.validPairFound`,
    /// Tern's libnice patch); nil when the peer connection had no ICE trace.
    var validPairBeforeSelection: Bool?
    var dtlsDescription: String?
    /// Which set-up accelerations the connection used: "snap" (SCTP INITs in the descriptions,
    /// no SCTP handshake) or "none".
    var setupPath: String?
    /// The selected pair's round-trip time, in milliseconds, when measured.
    var pairRoundTripMs: Double?
    var localCandidate: (address: String, port: Int, transport: String, priority: UInt32)?
    var remoteCandidate: (address: String, port: Int, transport: String, priority: UInt32)?
    /// Every candidate the reporting side's ICE agent gathered or was given, in trace order
    /// (`local` true for gathered ones), for the report's candidate table.
    var candidates: [(local: Bool, candidate: ICECandidate)] = []
    /// `tern peer` only: who we are and what the data channels saw.
    var peer: PeerFacts?

    /// The single side `tern peer` reports on.
    struct PeerFacts {
        var user: String
        var role: String
        var remoteUser: String?
        var endReason: String?
        /// The call's signaling path after a lost connection: `reconnecting`, then `connected` once resumed.
        var signalingStatuses: [String] = []
        var audioPacketsSent = 0
        var videoPacketsSent = 0
        /// Video frames this side handed to the transport (W3C `framesSent`), for the other side's
        /// decoded count to be compared with.
        var videoFramesSent = 0
        var channelsOpened: [String] = []
        var messagesEchoed = 0
        var messagesEchoedByLabel: [String: Int] = [:]
        var messagesReceivedByLabel: [String: Int] = [:]
        var echo: EchoResult?
    }

    init(steps: StepLog) { self.steps = steps }

    /// Reads the figures from both sides: media as received by bob from alice, the data
    /// channel's messages at both ends.
    init(steps: StepLog, setupMs: Double?, caller: CallParticipant, callee: CallParticipant) {
        self.steps = steps
        self.setupMs = setupMs
        callerStates = caller.snapshot.callStates
        calleeStates = callee.snapshot.callStates
        if let peer = caller.snapshot.peer { readTransport(of: peer) }
        readMedia(receivedBy: callee)
        messagesReceived = caller.snapshot.manageEvents.count + callee.snapshot.manageEvents.count
    }

    /// Reads one side's figures (`tern peer`): its transport and the media it received.
    init(steps: StepLog, setupMs: Double?, local: CallParticipant, facts: PeerFacts) {
        self.steps = steps
        self.setupMs = setupMs
        peer = facts
        callerStates = local.snapshot.callStates
        if let connection = local.snapshot.peer {
            readTransport(of: connection)
            let stats = connection.getStats()
            peer?.audioPacketsSent = Int(stats.outbound(.audio)?.counters.packetsSent ?? 0)
            peer?.videoPacketsSent = Int(stats.outbound(.video)?.counters.packetsSent ?? 0)
            peer?.videoFramesSent = stats.outbound(.video)?.framesSent ?? 0
        }
        readMedia(receivedBy: local)
        offerSDP = local.snapshot.offer
        answerSDP = local.snapshot.answer
    }

    private mutating func readTransport(of peer: PeerConnection) {
        localCandidateType = peer.selectedCandidatePair?.local.type
        remoteCandidateType = peer.selectedCandidatePair?.remote.type
        srtpProfile = peer.dtlsConnectionInfo?.srtpProfile?.openSSLName
        cipherSuite = peer.dtlsConnectionInfo?.cipherSuite
        dtlsDescription = peer.dtlsConnectionInfo?.description
        let stats = peer.getStats()
        // Which set-up accelerations were used: SNAP, DTLS in the checks, both ("snap+dtlsInStun"), or none.
        let accelerations = [stats.sctpTransport?.establishedWithoutHandshake == true ? "snap" : nil,
                             stats.transport.dtlsInChecks == true ? "dtlsInStun" : nil].compactMap { $0 }
        if stats.sctpTransport != nil || stats.transport.dtlsInChecks != nil {
            setupPath = accelerations.isEmpty ? "none" : accelerations.joined(separator: "+")
        }
        pairRoundTripMs = stats.candidatePair?.currentRoundTripTime.map { $0 * 1000 }
        availableOutgoingBitrate = stats.candidatePair?.availableOutgoingBitrate
        candidates = peer.iceTrace?.entries.compactMap { entry -> (local: Bool, candidate: ICECandidate)? in
            switch entry.event {
            case let .localCandidate(candidate, _): (true, candidate)
            case let .remoteCandidateAdded(candidate): (false, candidate)
            default: nil
            }
        } ?? []
        validPairBeforeSelection = peer.iceTrace.map { trace in
            trace.entries.contains { if case .validPair = $0.event { true } else { false } }
        }
        if let pair = peer.selectedCandidatePair {
            selectedPair = "\(pair.local) ↔ \(pair.remote)"
            selectionReason = peer.iceTrace?.selection?.reason
            localCandidate = (pair.local.address, Int(pair.local.port), pair.local.transport.lowercased(), pair.local.priority)
            remoteCandidate = (pair.remote.address, Int(pair.remote.port), pair.remote.transport.lowercased(), pair.remote.priority)
        }
    }

    private mutating func readMedia(receivedBy receiver: CallParticipant) {
        let stats = receiver.snapshot.peer?.getStats()
        audioPacketsReceived = Int(stats?.inbound(.audio)?.counters.packetsReceived ?? 0)
        detectedToneHz = receiver.detectedToneHz
        videoFramesDecoded = receiver.snapshot.tracks.filter { $0.info.kind == .video }.map(\.framesDecoded).reduce(0, +)
        videoResolution = receiver.snapshot.tracks.compactMap(\.frameSize).last.map { "\($0.width)x\($0.height)" }
        if let rendering = receiver.snapshot.tracks.compactMap(\.videoRendering).last {
            videoFreezeCount = rendering.freezeCount
            videoTotalFreezesDuration = rendering.totalFreezesDuration
            videoFramesPerSecond = rendering.averageFramesPerSecond
        }
    }

    /// The same figures read later, keeping the larger counts: `tern peer` samples while the call
    /// is up, and a transport closed by the remote hang-up reports nothing any more.
    func merged(withLater later: CallSummary) -> CallSummary {
        var result = later
        result.audioPacketsReceived = max(audioPacketsReceived, later.audioPacketsReceived)
        result.videoFramesDecoded = max(videoFramesDecoded, later.videoFramesDecoded)
        result.videoResolution = later.videoResolution ?? videoResolution
        result.videoFreezeCount = later.videoFreezeCount ?? videoFreezeCount
        result.videoTotalFreezesDuration = later.videoTotalFreezesDuration ?? videoTotalFreezesDuration
        result.videoFramesPerSecond = later.videoFramesPerSecond ?? videoFramesPerSecond
        result.availableOutgoingBitrate = later.availableOutgoingBitrate ?? availableOutgoingBitrate
        result.detectedToneHz = later.detectedToneHz ?? detectedToneHz
        result.localCandidateType = later.localCandidateType ?? localCandidateType
        result.remoteCandidateType = later.remoteCandidateType ?? remoteCandidateType
        result.srtpProfile = later.srtpProfile ?? srtpProfile
        result.cipherSuite = later.cipherSuite ?? cipherSuite
        result.dtlsDescription = later.dtlsDescription ?? dtlsDescription
        result.setupPath = later.setupPath ?? setupPath
        result.pairRoundTripMs = later.pairRoundTripMs ?? pairRoundTripMs
        result.selectedPair = later.selectedPair ?? selectedPair
        result.selectionReason = later.selectionReason ?? selectionReason
        result.validPairBeforeSelection = later.validPairBeforeSelection ?? validPairBeforeSelection
        result.localCandidate = later.localCandidate ?? localCandidate
        result.remoteCandidate = later.remoteCandidate ?? remoteCandidate
        if later.candidates.count < candidates.count { result.candidates = candidates }
        if var facts = result.peer, let earlier = peer {
            facts.audioPacketsSent = max(facts.audioPacketsSent, earlier.audioPacketsSent)
            facts.videoPacketsSent = max(facts.videoPacketsSent, earlier.videoPacketsSent)
            facts.videoFramesSent = max(facts.videoFramesSent, earlier.videoFramesSent)
            result.peer = facts
        }
        return result
    }

    var json: JSONValue {
        func string(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
        var object: [String: JSONValue] = [
            "summary": .bool(true),
            "result": .string(steps.result),
            "callStates": .array(callerStates.map { .string($0) }),
            "setupMs": setupMs.map { .number(($0 * 10).rounded() / 10) } ?? .null,
            "setupPath": string(setupPath),
            // Set-up time in round trips of the selected pair (its measured RTT), when both are known.
            "setupRoundTrips": setupMs.flatMap { ms in pairRoundTripMs.flatMap { $0 > 0 ? .number((ms / $0 * 10).rounded() / 10) : nil } } ?? .null,
            "ice": .object([
                "selectedPair": .object([
                    "local": .object(["type": string(localCandidateType)]),
                    "remote": .object(["type": string(remoteCandidateType)]),
                    "reason": string(selectionReason),
                ]),
                "validPairBeforeSelection": validPairBeforeSelection.map { .bool($0) } ?? .null,
            ]),
            "dtls": .object(["srtpProfile": string(srtpProfile), "cipherSuite": string(cipherSuite)]),
            "steps": .array(steps.steps.map { .object(["name": .string($0.name), "passed": .bool($0.passed), "detail": .string($0.detail)]) }),
        ]
        var audio: [String: JSONValue] = ["packetsReceived": .int(audioPacketsReceived),
                                          "detectedToneHz": detectedToneHz.map { .number($0) } ?? .null]
        var video: [String: JSONValue] = ["framesDecoded": .int(videoFramesDecoded),
                                          "resolution": videoResolution.map(JSONValue.string) ?? .null,
                                          "freezeCount": videoFreezeCount.map { .int($0) } ?? .null,
                                          "totalFreezesDuration": videoTotalFreezesDuration.map { .number(($0 * 1000).rounded() / 1000) } ?? .null,
                                          "framesPerSecond": videoFramesPerSecond.map { .number(($0 * 10).rounded() / 10) } ?? .null]
        var dataChannel: [String: JSONValue] = ["messagesReceived": .int(messagesReceived)]
        if let peer {
            object["user"] = .string(peer.user)
            object["role"] = .string(peer.role)
            object["remoteUser"] = string(peer.remoteUser)
            object["endReason"] = string(peer.endReason)
            object["signaling"] = .array(peer.signalingStatuses.map { .string($0) })
            audio["packetsSent"] = .int(peer.audioPacketsSent)
            video["packetsSent"] = .int(peer.videoPacketsSent)
            video["framesSent"] = .int(peer.videoFramesSent)
            dataChannel["channels"] = .array(peer.channelsOpened.map { .string($0) })
            dataChannel["messagesEchoed"] = .int(peer.messagesEchoed)
            dataChannel["messagesEchoedByLabel"] = .object(peer.messagesEchoedByLabel.mapValues { .int($0) })
            dataChannel["messagesReceivedByLabel"] = .object(peer.messagesReceivedByLabel.mapValues { .int($0) })
            if let echo = peer.echo { dataChannel["echo"] = echo.json }
        } else {
            object["calleeCallStates"] = .array(calleeStates.map { .string($0) })
        }
        object["media"] = .object(["audio": .object(audio), "video": .object(video)])
        object["congestion"] = .object(["availableOutgoingBitrate": availableOutgoingBitrate.map { .number($0.rounded()) } ?? .null])
        object["dataChannel"] = .object(dataChannel)
        return .object(object)
    }

    var text: String {
        var lines = ["", "Summary"]
        for step in steps.steps {
            lines.append("  \(step.passed ? "✔" : "✘") \(step.name.padding(toLength: 14, withPad: " ", startingAt: 0)) \(step.detail)")
        }
        let tone = detectedToneHz.map { "\(Int($0)) Hz" } ?? "-"
        if let peer {
            lines.append("  call states (\(peer.user)): \(callerStates.joined(separator: " → "))"
                + (peer.endReason.map { " (\($0))" } ?? ""))
            if let setupMs { lines.append(String(format: "  setup: %.1f ms (invite → IN_PROGRESS)", setupMs)) }
            lines.append("  ICE pair: \(localCandidateType ?? "-") ↔ \(remoteCandidateType ?? "-"); DTLS \(cipherSuite ?? "-"), SRTP \(srtpProfile ?? "-")")
            lines.append("  \(peer.user) received \(audioPacketsReceived) audio packets, tone \(tone), \(videoFramesDecoded) video frames decoded")
            lines.append("  data channels \(peer.channelsOpened); messages received \(messagesReceived), echoed \(peer.messagesEchoed)")
            if let echo = peer.echo { lines.append("  echo: \(echo.text)") }
        } else {
            lines.append("  call states (alice): \(callerStates.joined(separator: " → "))")
            lines.append("  call states (bob):   \(calleeStates.joined(separator: " → "))")
            if let setupMs { lines.append(String(format: "  setup: %.1f ms (invite → IN_PROGRESS)", setupMs)) }
            lines.append("  ICE pair: \(localCandidateType ?? "-") ↔ \(remoteCandidateType ?? "-"); DTLS \(cipherSuite ?? "-"), SRTP \(srtpProfile ?? "-")")
            lines.append("  bob received \(audioPacketsReceived) audio packets, tone \(tone), \(videoFramesDecoded) video frames decoded")
            lines.append("  manage-call messages received: \(messagesReceived)")
        }
        lines.append("  result: \(steps.result)")
        return lines.joined(separator: "\n")
    }
}
