import Synchronization
import Testing
import TernCore
import TernPeer
import TernSDP

/// A trickled candidate can reach the answerer before the offer does (the offerer gathers as soon as
/// it set its local description). It used to be refused by JSEP, the forwarding task dropped it,
/// end-of-candidates was still recorded, and ICE never checked: both sides stayed `new` — the
/// cause of the old TernPeerTests flake and of a release-build benchmark that never connected.
@Suite("Candidates that overtake the description")
struct EarlyCandidateTests {
    @Test("candidates and end-of-candidates added before setRemoteDescription are kept and used")
    func candidateBeforeOfferIsKept() async throws {
        let caller = try PeerConnection(configuration: .loopback)
        let callee = try PeerConnection(configuration: .loopback)
        defer { caller.close(); callee.close() }
        let callerCandidates = Mutex<[ICECandidateInit?]>([])
        let calleeReader = Task {
            for await event in callee.events {
                if case let .iceCandidate(candidate) = event { try? await caller.addICECandidate(candidate) }
            }
        }
        let callerReader = Task {
            for await event in caller.events {
                if case let .iceCandidate(candidate) = event { callerCandidates.withLock { $0.append(candidate) } }
            }
        }
        defer { calleeReader.cancel(); callerReader.cancel() }

        let channel = try caller.createDataChannel("early")
        let offer = try await caller.createOffer()
        try await caller.setLocalDescription(offer)
        // Gathering finishes (end-of-candidates is the nil entry) before the callee sees the offer.
        #expect(await eventually { callerCandidates.withLock { $0.contains { $0 == nil } } })
        let gathered = callerCandidates.withLock { $0 }
        #expect(gathered.contains { $0 != nil }, "the offerer gathered a host candidate")
        #expect(!offer.sdp.contains("a=candidate"), "the offer itself carries no candidate: only trickle can deliver it")
        for candidate in gathered { try await callee.addICECandidate(candidate) }

        try await callee.setRemoteDescription(offer)
        let answer = try await callee.createAnswer()
        try await callee.setLocalDescription(answer)
        try await caller.setRemoteDescription(answer)

        #expect(await eventually { channel.readyState == .open },
                "caller ICE \(caller.iceConnectionState), callee ICE \(callee.iceConnectionState)")
        // The callee's own state follows its triggered check, which may answer after the
        // caller's channel opened (DTLS starts on the first successful check).
        #expect(await eventually { callee.iceConnectionState == .connected || callee.iceConnectionState == .completed },
                "callee ICE \(callee.iceConnectionState)")
    }
}
