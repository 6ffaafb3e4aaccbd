import Synchronization
import Testing
import TernICE
import TernPeer
import TernSDP

/// W3C `iceCandidatePoolSize`: gathering before any description, candidates carried by the
/// first description, `icecandidate` events only after `setLocalDescription`, and the pooled
/// agent taking the role the first description gives it.
@Suite("ICE candidate pool (iceCandidatePoolSize)", .serialized)
struct CandidatePoolTests {
    private static func pooled() -> PeerConfiguration {
        var configuration = PeerConfiguration.loopback
        configuration.iceCandidatePoolSize = 1
        return configuration
    }

    @Test("a pooled connection gathers at creation, reports nothing until setLocalDescription, and its offer carries the candidates")
    func poolGathersBeforeDescriptionsAndOfferCarriesCandidates() async throws {
        let pc = try PeerConnection(configuration: Self.pooled())
        defer { pc.close() }
        let events = Mutex<[PeerConnectionEvent]>([])
        let watcher = Task { for await event in pc.events { events.withLock { $0.append(event) } } }
        defer { watcher.cancel() }
        _ = try pc.createDataChannel("pool")

        // Gathering finishes with no description applied (the ICE trace shows it) ...
        #expect(await eventually {
            pc.iceTrace?.entries.contains { if case .gatheringComplete = $0.event { true } else { false } } == true
        })
        // ... and no candidate or gathering event has been reported yet.
        #expect(!events.withLock { $0.contains { $0.isCandidateOrGathering } })

        let offer = try await pc.createOffer()
        #expect(offer.sdp.contains("a=candidate:"), "the offer carries the pooled candidate")
        #expect(offer.sdp.contains("a=end-of-candidates"), "pooled gathering finished before the offer")

        try await pc.setLocalDescription(offer)
        #expect(await eventually { events.withLock { $0.contains { $0.isEndOfCandidates } } })
        let reported = events.withLock { $0.compactMap(\.candidateOrGatheringLabel) }
        #expect(reported.first == "gathering gathering")
        #expect(reported.suffix(2) == ["gathering complete", "end-of-candidates"])
        #expect(reported.filter { $0 == "candidate" }.count == 1, "one 127.0.0.1 host candidate: \(reported)")
    }

    @Test("two pooled connections connect without trickle; the answerer's pooled agent becomes controlled")
    func pooledPairConnectsWithCandidatesInTheDescriptionsOnly() async throws {
        let pair = try PeerPair(configuration: Self.pooled())
        defer { pair.close() }
        // No trickle at all: every candidate must travel inside the offer and the answer.
        let drains = [pair.caller, pair.callee].map { pc in Task { for await _ in pc.events {} } }
        defer { drains.forEach { $0.cancel() } }
        let channel = try pair.caller.createDataChannel("pool")
        for pc in [pair.caller, pair.callee] {
            #expect(await eventually {
                pc.iceTrace?.entries.contains { if case .gatheringComplete = $0.event { true } else { false } } == true
            })
        }
        try await pair.negotiate()
        #expect(await eventually { pair.caller.connectionState == .connected && pair.callee.connectionState == .connected },
                "\(pair.diagnosis)")
        #expect(await eventually { channel.readyState == .open })
        // The offerer (controlling) nominates, the answerer was nominated.
        let callerReason = try #require(pair.caller.iceTrace?.selection?.reason)
        let calleeReason = try #require(pair.callee.iceTrace?.selection?.reason)
        #expect(callerReason.hasPrefix("nominated by this agent (controlling"), "\(callerReason)")
        #expect(calleeReason.hasPrefix("nominated by the peer"), "\(calleeReason)")
    }
}

private extension PeerConnectionEvent {
    var candidateOrGatheringLabel: String? {
        switch self {
        case let .iceCandidate(candidate): candidate == nil ? "end-of-candidates" : "candidate"
        case let .iceGatheringStateChanged(state): "gathering \(state.rawValue)"
        default: nil
        }
    }
    var isCandidateOrGathering: Bool { candidateOrGatheringLabel != nil }
    var isEndOfCandidates: Bool { if case .iceCandidate(nil) = self { true } else { false } }
}
