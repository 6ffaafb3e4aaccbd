import Synchronization
import Testing
import TernICE
import TernSDP
@testable import TernPeer

/// SRTP replay and tampering on a live call (issue #11's security scenarios): datagrams the
/// callee's socket delivered are handed to its transport again, once as they were (a replay) and
/// once with one payload bit flipped (tampering). Both are refused by libsrtp, counted in the
/// transport stats, and the call's audio goes on.
@Suite("Peer connection refuses replayed and tampered SRTP", .serialized)
struct HostileMediaTests {
    /// The callee's inbound datagrams, recorded on their way from ICE to the transport.
    final class Recorder: Sendable {
        let rtp = Mutex<[[UInt8]]>([])
    }

    @Test("a replayed and a tampered SRTP packet are dropped and counted; audio keeps arriving")
    func replayAndTamperAreRefused() async throws {
        let pair = try PeerPair()
        defer { pair.close() }
        let atCallee = TrackCollector()
        let tasks = pair.startTrickle(onCallee: atCallee.observe)
        defer { tasks.forEach { $0.cancel() }; atCallee.stop() }
        let audio = try pair.caller.addTransceiver(.audio, direction: .sendonly)
        try await pair.negotiate()
        #expect(await pair.bothConnected(), "\(pair.diagnosis)")
        let pump = MediaPump(audio: audio.sender, frequency: 440)
        defer { pump.stop() }
        #expect(await eventually { atCallee.track(.audio) != nil })
        let track = try #require(atCallee.track(.audio))

        let (ice, driver) = (pair.callee.objects.ice, pair.callee.objects.driver)
        let transportICE = try #require(ice), transport = try #require(driver)
        let recorder = Recorder()
        transportICE.setReceiveHandler { datagram in
            // RTP (RFC 7983: first byte 128–191, payload type not 64–95, which is RTCP).
            if (128...191).contains(datagram.first ?? 0), datagram.count > 12, !(64...95).contains(datagram[1] & 0x7f) {
                recorder.rtp.withLock { $0.append(datagram) }
            }
            transport.receive(datagram)
        }
        #expect(await eventually { recorder.rtp.withLock { $0.count } >= 10 })
        let original = try #require(recorder.rtp.withLock { $0.first })
        let before = Self.counters(pair.callee)

        transport.receive(original)                       // replay: an old packet again
        var tampered = try #require(recorder.rtp.withLock { $0.last })
        tampered[tampered.count / 2] ^= 0x01              // one bit of the ciphertext
        // A sequence number ahead of anything sent, so libsrtp judges it by its tag, not as a replay.
        let sequence = (UInt16(tampered[2]) << 8 | UInt16(tampered[3])) &+ 1000
        tampered[2] = UInt8(sequence >> 8)
        tampered[3] = UInt8(sequence & 0xff)
        transport.receive(tampered)

        let after = Self.counters(pair.callee)
        #expect(after.replays == before.replays + 1, "replays \(before.replays) → \(after.replays)")
        #expect(after.authFailures == before.authFailures + 1, "auth failures \(before.authFailures) → \(after.authFailures)")
        #expect(await receivesMore(track), "audio goes on")
        #expect(await eventually { atCallee.tone(on: track) == 440 })
    }

    static func counters(_ peer: PeerConnection) -> (replays: Double, authFailures: Double) {
        let transport = peer.getStats().transport
        return (transport.srtpReplaysDropped.map(Double.init) ?? -1, transport.srtpAuthenticationFailures.map(Double.init) ?? -1)
    }
}
