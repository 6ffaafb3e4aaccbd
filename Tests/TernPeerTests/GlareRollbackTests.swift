import Synchronization
import Testing
import TernPeer
import TernSCTP
import TernSDP

/// Glare (both sides offer at once) resolved the "perfect negotiation" way: the impolite side
/// ignores the incoming offer, the polite side rolls its own back (RFC 9429 §4.1.8.2, W3C
/// `setLocalDescription({type: "rollback"})`) and answers.
@Suite("Peer connection glare resolved by rollback", .serialized)
struct GlareRollbackTests {
    @Test("both sides set local offers; the polite one rolls back and answers; the call connects and both channels open")
    func politeSideRollsBack() async throws {
        let pair = try PeerPair()
        defer { pair.close() }
        let impolite = pair.caller, polite = pair.callee
        let atImpolite = Mutex<DataChannel?>(nil), atPolite = Mutex<DataChannel?>(nil)
        let tasks = pair.startTrickle(onCaller: { event in
            if case let .dataChannel(channel) = event { atImpolite.withLock { $0 = channel } }
        }, onCallee: { event in
            if case let .dataChannel(channel) = event { atPolite.withLock { $0 = channel } }
        })
        defer { tasks.forEach { $0.cancel() } }

        // Both want to talk at the same moment: each creates a channel and makes an offer.
        let impoliteChannel = try impolite.createDataChannel("from-impolite")
        let politeChannel = try polite.createDataChannel("from-polite")
        let impoliteOffer = try await impolite.createOffer()
        let politeOffer = try await polite.createOffer()
        try await impolite.setLocalDescription(impoliteOffer)
        try await polite.setLocalDescription(politeOffer)
        #expect(impolite.signalingState == .haveLocalOffer && polite.signalingState == .haveLocalOffer)

        // The offers cross. The impolite side ignores the polite offer (it keeps its own); the
        // polite side rolls its own offer back, takes the impolite one and answers it.
        try await polite.setLocalDescription(JSEPDescription(type: .rollback, sdp: ""))
        #expect(polite.signalingState == .stable)
        try await polite.setRemoteDescription(impoliteOffer)
        let answer = try await polite.createAnswer()
        try await polite.setLocalDescription(answer)
        try await impolite.setRemoteDescription(answer)
        #expect(impolite.signalingState == .stable && polite.signalingState == .stable)

        #expect(await pair.bothConnected(), "\(pair.diagnosis)")
        #expect(await eventually { impoliteChannel.readyState == .open }, "\(pair.diagnosis)")
        #expect(await eventually { politeChannel.readyState == .open }, "\(pair.diagnosis)")
        #expect(await eventually { atImpolite.withLock { $0 }?.label == "from-polite" })
        #expect(await eventually { atPolite.withLock { $0 }?.label == "from-impolite" })
        let politeTwin = try #require(atPolite.withLock { $0 }), impoliteTwin = try #require(atImpolite.withLock { $0 })

        // Each channel carries a message to the other side.
        let (atPoliteLog, atImpoliteLog) = (MessageLog(politeTwin), MessageLog(impoliteTwin))
        defer { atPoliteLog.stop(); atImpoliteLog.stop() }
        try impoliteChannel.send("hello from the impolite side")
        try politeChannel.send("hello from the polite side")
        #expect(await eventually { atPoliteLog.received == [.string("hello from the impolite side")] })
        #expect(await eventually { atImpoliteLog.received == [.string("hello from the polite side")] })
    }
}
