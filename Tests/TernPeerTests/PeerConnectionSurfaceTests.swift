import Foundation
import Synchronization
import Testing
import TernCore
import TernMedia
import TernPeer

/// Parts of the W3C surface that the scenario tests use without checking: `negotiationneeded`,
/// the ICE gathering state, SCTP only with an application section, and the whole getStats shape.
@Suite("Peer connection events, gathering state, SCTP start and stats shape", .serialized)
struct PeerConnectionSurfaceTests {
    @Test("negotiationneeded fires for addTransceiver and createDataChannel; gathering goes new → gathering → complete")
    func negotiationNeededAndGatheringState() async throws {
        let pair = try PeerPair()
        defer { pair.close() }
        let callerEvents = Mutex<[PeerConnectionEvent]>([])
        let tasks = pair.startTrickle(onCaller: { event in callerEvents.withLock { $0.append(event) } })
        defer { tasks.forEach { $0.cancel() } }
        #expect(pair.caller.iceGatheringState == .new)

        _ = try pair.caller.addTransceiver(.audio, direction: .sendrecv)
        #expect(await eventually { callerEvents.withLock { $0.contains(where: \.isNegotiationNeeded) } })
        try await pair.negotiate()
        #expect(await eventually { pair.caller.connectionState == .connected }, "\(pair.diagnosis)")
        #expect(await eventually { pair.caller.iceGatheringState == .complete })
        // The events are recorded by the trickle task, which can be a moment behind the state.
        let gathering: @Sendable () -> [String] = {
            callerEvents.withLock { $0 }.compactMap { event -> String? in
                if case let .iceGatheringStateChanged(state) = event { "\(state)" } else { nil }
            }
        }
        #expect(await eventually { gathering() == ["gathering", "complete"] }, "\(gathering())")

        // A data channel on a connection without an application section needs a new exchange.
        let before = callerEvents.withLock { $0.filter(\.isNegotiationNeeded).count }
        _ = try pair.caller.createDataChannel("later")
        #expect(await eventually { callerEvents.withLock { $0.filter(\.isNegotiationNeeded).count } == before + 1 })
    }

    @Test("an audio-only connection starts no SCTP association: no SCTP packet either way, no data-channel stats")
    func noApplicationSectionNoSCTP() async throws {
        let tapped = Mutex<[TappedPacket.Kind]>([])
        var configuration = PeerConfiguration.loopback
        configuration.packetTap = { packet in tapped.withLock { $0.append(packet.kind) } }
        let pair = try PeerPair(configuration: configuration)
        defer { pair.close() }
        let tasks = pair.startTrickle()
        defer { tasks.forEach { $0.cancel() } }
        let audio = try pair.caller.addTransceiver(.audio, direction: .sendonly)
        try await pair.negotiate()
        #expect(await eventually { pair.caller.connectionState == .connected && pair.callee.connectionState == .connected },
                "\(pair.diagnosis)")
        #expect(pair.caller.localDescription?.sdp.contains("m=application") == false)
        var tone = SineToneSource(frequency: 440)
        for _ in 0..<25 {
            try audio.sender.send(audio: tone.nextFrame())
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(await eventually { tapped.withLock { $0.contains(.rtp) } })
        #expect(!tapped.withLock { $0.contains(.sctp) }, "no SCTP packet was sent or received")
        #expect(pair.caller.getStats().dataChannels.isEmpty)
        #expect(pair.caller.getStats().sctpTransport == nil)
    }

    @Test("an audio + video + data call's getStats has all twelve W3C entry types (and sctp-transport) with their standard fields")
    func statsReportHasEveryType() async throws {
        let pair = try PeerPair()
        defer { pair.close() }
        let tasks = pair.startTrickle()
        defer { tasks.forEach { $0.cancel() } }
        let audio = try pair.caller.addTransceiver(.audio, direction: .sendrecv)
        let video = try pair.caller.addTransceiver(.video, direction: .sendrecv)
        let channel = try pair.caller.createDataChannel("stats")
        try await pair.negotiate()
        #expect(await eventually { channel.readyState == .open }, "\(pair.diagnosis)")
        var tone = SineToneSource(frequency: 440)
        var pattern = TestPatternSource(width: 160, height: 120)
        // Media flows until receiver reports came back (so remote-inbound-rtp exists) and the callee
        // has both kinds; ten seconds at most, as a loaded machine can be slow to get there.
        for _ in 0..<500 {
            try audio.sender.send(audio: tone.nextFrame())
            try video.sender.send(video: pattern.nextFrame())
            try await Task.sleep(for: .milliseconds(20))
            if pair.caller.getStats().remoteInboundRTP.count == 2 && pair.callee.getStats().inboundRTP.count == 2 { break }
        }
        // The callee received; the caller's report then has both directions' entries.
        let report = pair.caller.getStats()
        let expected: Set = ["candidate-pair", "local-candidate", "remote-candidate", "transport", "certificate", "codec",
                             "outbound-rtp", "remote-inbound-rtp", "media-source", "data-channel", "peer-connection"]
        #expect(expected.isSubset(of: report.types), "missing: \(expected.subtracting(report.types))")
        // inbound-rtp needs the callee to send: check it on the callee, which receives both kinds.
        #expect(await eventually { pair.callee.getStats().inboundRTP.count == 2 })
        let callee = pair.callee.getStats()
        let inboundVideo = try #require(callee.inbound(.video))
        #expect(inboundVideo.frameWidth == 160 && inboundVideo.frameHeight == 120, "the size the caller sent")
        // The JSON form is what browsers report: flat objects with id, type, timestamp and the
        // W3C field names, the RTP layer's counters beside the peer's own fields.
        func entries(_ report: StatsReport, _ type: String) throws -> [[String: Any]] {
            let data = try #require(report.jsonString().data(using: .utf8))
            let all = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
            #expect(all.allSatisfy { $0["id"] is String && $0["timestamp"] is Double }, "every entry has id and timestamp")
            return all.filter { $0["type"] as? String == type }
        }
        let inbound = try entries(callee, "inbound-rtp")
        #expect(inbound.count == 2)
        for entry in inbound {
            for field in ["ssrc", "kind", "mid", "packetsReceived", "bytesReceived", "packetsLost", "jitter", "codecId"] {
                #expect(entry[field] != nil, "inbound-rtp without \(field)")
            }
        }
        for entry in try entries(report, "outbound-rtp") {
            for field in ["ssrc", "kind", "packetsSent", "bytesSent", "remoteId"] { #expect(entry[field] != nil, "outbound-rtp without \(field)") }
        }
        let pairEntry = try #require(try entries(report, "candidate-pair").first)
        for field in ["state", "nominated", "localCandidateId", "remoteCandidateId"] {
            #expect(pairEntry[field] != nil, "candidate-pair without \(field)")
        }
        let dataChannel = try #require(try entries(report, "data-channel").first)
        for field in ["label", "state", "messagesSent", "bytesSent", "messagesReceived", "bytesReceived"] {
            #expect(dataChannel[field] != nil, "data-channel without \(field)")
        }
        // RTCSctpTransportStats: the DCEP exchange gave the association an RTT sample.
        let sctp = try #require(try entries(report, "sctp-transport").first)
        for field in ["transportId", "congestionWindow", "receiverWindow", "mtu", "unackData", "smoothedRoundTripTime"] {
            #expect(sctp[field] != nil, "sctp-transport without \(field)")
        }
        #expect(report.sctpTransport?.smoothedRoundTripTime != nil)
    }
}

extension PeerConnectionEvent {
    var isNegotiationNeeded: Bool { if case .negotiationNeeded = self { true } else { false } }
}
