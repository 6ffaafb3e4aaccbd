import Synchronization
import Testing
import TernICE
import TernSDP
import TernTestSupport
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

        let (ice, driver) = pair.callee.state.withLock { ($0.ice, $0.driver) }
        let transportIce = try #require(ice), transport = try #require(driver)
        let recorder = Recorder()
        transportIce.setReceiveHandler { datagram in
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

    @Test("a peer sending under 2,000 new SSRCs with a known mid: 8 streams kept, the rest refused and counted in getStats, memory bounded, audio goes on")
    func ssrcRotationIsBounded() async throws {
        let sent = Recorder()
        var tapped = PeerConfiguration.loopback
        tapped.packetTap = { packet in
            if packet.direction == .outbound, packet.kind == .rtp { sent.rtp.withLock { if $0.count < 50 { $0.append(packet.bytes) } } }
        }
        let pair = PeerPair(caller: try PeerConnection(configuration: tapped), callee: try PeerConnection(configuration: .loopback))
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
        #expect(await eventually { sent.rtp.withLock { $0.count } >= 10 })
        // The first packets carry the MID extension (RFC 8843 §15): the attack copies one.
        let template = try #require(sent.rtp.withLock { $0.first })
        let callerDriver = try #require(pair.caller.state.withLock { $0.driver })
        let before = await ProcessResources.settled()

        for index in 0..<2_000 {
            var packet = template
            let ssrc = UInt32(0x5000_0000) &+ UInt32(index)
            packet.replaceSubrange(8..<12, with: [UInt8(ssrc >> 24), UInt8(ssrc >> 16 & 0xff), UInt8(ssrc >> 8 & 0xff), UInt8(ssrc & 0xff)])
            // Protected with the caller's real SRTP keys and sent over the real ICE path.
            callerDriver.perform { core, _ in
                if core.srtpOutbound?.protectRTP(&packet) == .ok { core.output.datagrams.append(packet) }
            }
            if index % 100 == 99 { try? await Task.sleep(for: .milliseconds(5)) }
        }
        #expect(await eventually { Self.transportValue(pair.callee, "rtpStreamsRefused") >= 1_900 },
                "refused: \(Self.transportValue(pair.callee, "rtpStreamsRefused"))")
        let after = await ProcessResources.settled()
        #expect(after.residentKiB - before.residentKiB < 32 * 1024, "RSS \(before.residentKiB) → \(after.residentKiB) KiB")
        #expect(pair.callee.getStats().entries(ofType: "inbound-rtp").count <= 1 + 8, "receivers are capped per m-section")
        #expect(await receivesMore(track), "audio goes on")
    }

    static func transportValue(_ peer: PeerConnection, _ name: String) -> Double {
        peer.getStats().entries(ofType: "transport").first?[name]?.number ?? -1
    }

    static func counters(_ peer: PeerConnection) -> (replays: Double, authFailures: Double) {
        let transport = peer.getStats().entries(ofType: "transport").first
        return (transport?["srtpReplaysDropped"]?.number ?? -1, transport?["srtpAuthenticationFailures"]?.number ?? -1)
    }
}
