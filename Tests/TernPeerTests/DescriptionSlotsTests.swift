import Synchronization
import Testing
import TernPeer
import TernSDP

/// W3C's description slots (webrtc-pc §4.4.1.5): pending until the answer, current after, a
/// rollback discards the pending one; the remote description carries candidates supplied by
/// `addICECandidate`.
@Suite("Pending and current descriptions (W3C)", .serialized)
struct DescriptionSlotsTests {
    @Test("an offer is pending until the answer makes both sides' descriptions current")
    func offerIsPendingUntilTheAnswer() async throws {
        let pair = try PeerPair()
        defer { pair.close() }
        _ = try pair.caller.createDataChannel("slots")
        let offer = try await pair.caller.createOffer()
        try await pair.caller.setLocalDescription(offer)
        #expect(pair.caller.pendingLocalDescription?.type == .offer)
        #expect(pair.caller.currentLocalDescription == nil)
        #expect(pair.caller.localDescription == pair.caller.pendingLocalDescription)

        try await pair.callee.setRemoteDescription(offer)
        #expect(pair.callee.pendingRemoteDescription?.sdp == offer.sdp)
        #expect(pair.callee.currentRemoteDescription == nil)
        let answer = try await pair.callee.createAnswer()
        try await pair.callee.setLocalDescription(answer)
        #expect(pair.callee.pendingRemoteDescription == nil && pair.callee.pendingLocalDescription == nil)
        #expect(pair.callee.currentRemoteDescription?.type == .offer)
        #expect(pair.callee.currentLocalDescription?.type == .answer)

        try await pair.caller.setRemoteDescription(answer)
        #expect(pair.caller.pendingLocalDescription == nil && pair.caller.pendingRemoteDescription == nil)
        #expect(pair.caller.currentLocalDescription?.type == .offer)
        #expect(pair.caller.currentRemoteDescription?.sdp == answer.sdp)
        #expect(pair.caller.remoteDescription == pair.caller.currentRemoteDescription)
    }

    @Test("a rolled-back first offer leaves no local description; a rolled-back renegotiation returns to the current one")
    func rollbackDiscardsThePendingOffer() async throws {
        let pair = try PeerPair()
        defer { pair.close() }
        _ = try pair.caller.createDataChannel("slots")
        let first = try await pair.caller.createOffer()
        try await pair.caller.setLocalDescription(first)
        try await pair.caller.setLocalDescription(JSEPDescription(type: .rollback, sdp: ""))
        #expect(pair.caller.localDescription == nil && pair.caller.pendingLocalDescription == nil)
        #expect(pair.caller.signalingState == .stable)

        try await pair.negotiate()
        let current = try #require(pair.caller.currentLocalDescription)
        let again = try await pair.caller.createOffer()
        try await pair.caller.setLocalDescription(again)
        #expect(pair.caller.pendingLocalDescription != nil)
        try await pair.caller.setLocalDescription(JSEPDescription(type: .rollback, sdp: ""))
        #expect(pair.caller.pendingLocalDescription == nil)
        #expect(pair.caller.localDescription?.type == current.type)
        #expect(pair.caller.currentRemoteDescription?.type == .answer)
    }

    @Test("a remote offer applied over our own offer (implicit rollback) leaves only the remote one pending")
    func remoteOfferOverOurOfferRollsItBack() async throws {
        let pair = try PeerPair()
        defer { pair.close() }
        _ = try pair.caller.createDataChannel("glare")
        _ = try pair.callee.createDataChannel("glare")
        let ours = try await pair.callee.createOffer()
        try await pair.callee.setLocalDescription(ours)
        let theirs = try await pair.caller.createOffer()
        try await pair.caller.setLocalDescription(theirs)
        try await pair.callee.setRemoteDescription(theirs)  // the polite side gives way
        #expect(pair.callee.signalingState == .haveRemoteOffer)
        #expect(pair.callee.pendingLocalDescription == nil && pair.callee.localDescription == nil)
        #expect(pair.callee.pendingRemoteDescription?.sdp == theirs.sdp)
    }

    @Test("remoteDescription carries the candidates and end-of-candidates given to addICECandidate")
    func remoteDescriptionCarriesTrickledCandidates() async throws {
        let pair = try PeerPair()
        defer { pair.close() }
        let trickled = Mutex<[ICECandidateInit?]>([])
        let watcher = Task {
            for await event in pair.caller.events {
                if case let .iceCandidate(candidate) = event { trickled.withLock { $0.append(candidate) } }
            }
        }
        defer { watcher.cancel() }
        _ = try pair.caller.createDataChannel("slots")
        let offer = try await pair.caller.createOffer()  // created before gathering: no candidates
        try await pair.caller.setLocalDescription(offer)
        try await pair.callee.setRemoteDescription(offer)
        #expect(pair.callee.remoteDescription?.sdp.contains("a=candidate:") == false)

        #expect(await eventually { trickled.withLock { $0.contains { $0 == nil } } })
        for candidate in trickled.withLock({ $0 }) { try await pair.callee.addICECandidate(candidate) }
        let remote = try #require(pair.callee.remoteDescription)
        let parsed = try SDPParser().parse(remote.sdp)
        #expect(parsed.media[0].candidates.map(\.address) == ["127.0.0.1"], "\(remote.sdp)")
        #expect(parsed.media[0].endOfCandidates)
        #expect(remote.type == .offer)
    }
}
