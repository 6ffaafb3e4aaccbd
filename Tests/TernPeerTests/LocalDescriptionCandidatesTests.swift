import Synchronization
import Testing
import TernICE
import TernPeer
import TernSDP

/// W3C `localDescription` carries the candidates gathered since the description was created
/// (webrtc-pc §4.4.1.1), and the host candidates libnice finds while `setLocalDescription` starts
/// gathering are in it when `setLocalDescription` returns.
@Suite("localDescription with gathered candidates", .serialized)
struct LocalDescriptionCandidatesTests {
    @Test("right after setLocalDescription, localDescription carries the host candidate; each event is reported once, in W3C order")
    func localDescriptionCarriesCandidatesGatheredBySetLocalDescription() async throws {
        let pc = try PeerConnection(configuration: .loopback)
        defer { pc.close() }
        let events = Mutex<[String]>([])
        let watcher = Task {
            for await event in pc.events {
                switch event {
                case let .iceCandidate(candidate): events.withLock { $0.append(candidate == nil ? "end-of-candidates" : "candidate") }
                case let .iceGatheringStateChanged(state): events.withLock { $0.append("gathering \(state.rawValue)") }
                default: break
                }
            }
        }
        defer { watcher.cancel() }
        _ = try pc.createDataChannel("sdp")
        let offer = try await pc.createOffer()
        #expect(!offer.sdp.contains("a=candidate:"), "nothing gathered before setLocalDescription")
        try await pc.setLocalDescription(offer)

        let local = try #require(pc.localDescription)
        #expect(local.type == .offer)
        let parsed = try SDPParser().parse(local.sdp)
        #expect(parsed.media[0].candidates.map(\.address) == ["127.0.0.1"], "\(local.sdp)")
        #expect(await eventually { pc.localDescription?.sdp.contains("a=end-of-candidates") == true })

        #expect(await eventually { events.withLock { $0.contains("end-of-candidates") } })
        try await Task.sleep(for: .milliseconds(50))  // anything reported twice would show by now
        #expect(events.withLock { $0 } == ["gathering gathering", "candidate", "gathering complete", "end-of-candidates"])
    }

    @Test("two connections connect when each sends only its localDescription read right after setLocalDescription (no trickle)")
    func connectionsConnectOnLocalDescriptionsAlone() async throws {
        let pair = try PeerPair()
        defer { pair.close() }
        let drains = [pair.caller, pair.callee].map { pc in Task { for await _ in pc.events {} } }
        defer { drains.forEach { $0.cancel() } }
        let channel = try pair.caller.createDataChannel("no-trickle")

        let offer = try await pair.caller.createOffer()
        try await pair.caller.setLocalDescription(offer)
        let sentOffer = try #require(pair.caller.localDescription)
        try await pair.callee.setRemoteDescription(sentOffer)
        let answer = try await pair.callee.createAnswer()
        try await pair.callee.setLocalDescription(answer)
        let sentAnswer = try #require(pair.callee.localDescription)
        #expect(sentAnswer.sdp.contains("a=candidate:"))
        try await pair.caller.setRemoteDescription(sentAnswer)

        #expect(await eventually { channel.readyState == .open }, "\(pair.diagnosis)")
    }
}
