import Foundation
import Synchronization
import Testing
import TernCore
import TernSDP
import TernTestSupport
@testable import TernPeer
@testable import TernSCTP

/// A hostile peer on a live call (issue #23, Docs/SECURITY.md): each attack goes over real ICE,
/// DTLS and SRTP to the victim, and each test asserts that the victim's process lives, its
/// resident memory grows by less than `rssBound` over the attack, the attack is counted where the
/// victim's `getStats()` (or the track) shows it, and a bystander call in the same process still
/// passes audio and data.
@Suite("A hostile peer on a live call: bounded, counted, and the call beside it goes on", .serialized)
struct HostilePeerTests {
    static let rssBound = 32 * 1024   // KiB

    @Test("RTP sequence numbers walking just under MAX_DROPOUT per packet: counted as loss, nothing traps")
    func sequenceNumberWalk() async throws {
        let arena = try await HostilePeerArena()
        defer { arena.close() }
        #expect(await arena.established(), "\(arena.call.diagnosis)")
        let audioSSRC = UInt32(arena.victimStat { $0.inbound(.audio).map { Double($0.counters.ssrc) } })
        let template = try #require(arena.sent.rtp(from: "caller").last { ForgedPacket.ssrc($0) == audioSSRC })
        let before = await ProcessResources.settled()

        var sequence = ForgedPacket.sequenceNumber(template), timestamp = ForgedPacket.timestamp(template)
        for index in 0..<20_000 {
            sequence &+= 2_999                       // RFC 3550 A.1: MAX_DROPOUT is 3,000
            timestamp &+= 960
            try arena.sendRTP(ForgedPacket.rewrite(template, sequence: sequence, timestamp: timestamp))
            if index % 500 == 499 { try await Task.sleep(for: .milliseconds(5)) }
        }
        // ~6e7 packets "lost": 20,000 jumps of 2,999 (more than 900 trips round the 16-bit space).
        #expect(await eventually { arena.victimStat { $0.inbound(.audio).map { Double($0.counters.packetsLost) } } > 10_000_000 },
                "packetsLost \(arena.victimStat { $0.inbound(.audio).map { Double($0.counters.packetsLost) } })")
        await arena.expectSurvived(since: before, boundKiB: Self.rssBound)
    }

    @Test("RTP under 2,000 new SSRCs naming a known mid: 8 streams kept per section, the rest refused and counted")
    func ssrcRotation() async throws {
        let arena = try await HostilePeerArena(callerVideo: false)
        defer { arena.close() }
        #expect(await arena.established(), "\(arena.call.diagnosis)")
        let audioSSRC = UInt32(arena.victimStat { $0.inbound(.audio).map { Double($0.counters.ssrc) } })
        // The first packets carry the MID header extension (RFC 8843 §15): the attack copies one.
        let template = try #require(arena.sent.rtp(from: "caller").first { ForgedPacket.ssrc($0) == audioSSRC })
        let before = await ProcessResources.settled()

        for index in 0..<2_000 {
            var packet = template
            packet.replaceSubrange(8..<12, with: ForgedPacket.bigEndian(0x5000_0000 &+ UInt32(index)))
            try arena.sendRTP(packet)
            if index % 100 == 99 { try await Task.sleep(for: .milliseconds(5)) }
        }
        #expect(await eventually { arena.victimStat { $0.transport.rtpStreamsRefused.map(Double.init) } >= 1_900 },
                "refused \(arena.victimStat { $0.transport.rtpStreamsRefused.map(Double.init) })")
        #expect(arena.victim.getStats().inboundRTP.count <= 1 + 8, "receivers are capped per m-section")
        let track = try #require(arena.atCallee.track(.audio))
        #expect(await receivesMore(track), "the victim's own audio goes on")
        await arena.expectSurvived(since: before, boundKiB: Self.rssBound)
    }

    @Test("1-byte middle SCTP fragments behind a hole, 60 to a packet: the fragment cap refuses and counts them")
    func tinySCTPFragments() async throws {
        let arena = try await HostilePeerArena()
        defer { arena.close() }
        #expect(await arena.established(), "\(arena.call.diagnosis)")
        let before = await ProcessResources.settled()

        var firstTSN: UInt32?
        for _ in 0..<400 {   // 24,000 fragments that never complete
            try arena.forge { core, now in
                guard let association = core.sctp?.association else { return }
                var tsn = firstTSN ?? association.nextTSN &+ 2   // nextTSN and the one after stay missing
                var chunks: [SCTPChunk] = []
                for _ in 0..<60 {
                    chunks.append(.data(DataChunk(tsn: tsn, streamIdentifier: 0, streamSequenceNumber: 1, payloadProtocolIdentifier: 53,
                                                  userData: [0x41], beginning: false, ending: false)))
                    tsn &+= 1
                }
                firstTSN = tsn
                let packet = SCTPPacket(sourcePort: association.config.localPort, destinationPort: association.config.remotePort,
                                        verificationTag: association.peerTag, chunks: chunks)
                try core.dtls.send(applicationData: packet.serialize())
                core.drainDTLS(now: now)
            }
            try await Task.sleep(for: .milliseconds(1))
        }
        #expect(await eventually { arena.victimStat { $0.sctpTransport.map { Double($0.fragmentsRefused) } } > 0 },
                "fragmentsRefused \(arena.victimStat { $0.sctpTransport.map { Double($0.fragmentsRefused) } })")
        await arena.expectSurvived(since: before, boundKiB: Self.rssBound)
    }

    @Test("data at line rate to an application that never reads: the backlog and the SCTP window hold the sender back")
    func lineRateDataToANonReadingApplication() async throws {
        let arena = try await HostilePeerArena()
        defer { arena.close() }
        #expect(await arena.established(), "\(arena.call.diagnosis)")
        let receiver = try #require(arena.calleeChannel.value)   // never read
        let before = await ProcessResources.settled()

        // Keep the pipe full for 3 s: send whenever less than 1 MiB waits in the sender.
        let message = [UInt8](repeating: 0x5a, count: 64 * 1024)
        var offered = 0
        let end = ContinuousClock.now + .seconds(3)
        while ContinuousClock.now < end {
            while arena.callerChannel.bufferedAmount < 1024 * 1024 {
                try arena.callerChannel.send(message)
                offered += message.count
            }
            try await Task.sleep(for: .milliseconds(2))
        }
        let handedOver = receiver.counters.bytesReceived
        let backlog = PeerConfiguration.loopback.dataChannelReceiveBacklog
        #expect(handedOver <= backlog + message.count, "handed over \(handedOver) of \(offered) offered")
        #expect(arena.callerChannel.bufferedAmount > 0, "the sender is held back")
        await arena.expectSurvived(since: before, boundKiB: Self.rssBound)
    }

    @Test("a VP8 keyframe header declaring 16383×16383: refused before libvpx allocates, counted as a decode failure")
    func giantKeyframeHeader() async throws {
        let arena = try await HostilePeerArena()
        defer { arena.close() }
        #expect(await arena.established(), "\(arena.call.diagnosis)")
        #expect(await eventually { arena.atCallee.track(.video) != nil })
        let track = try #require(arena.atCallee.track(.video))
        let videoSSRC = track.info.ssrc
        #expect(await receivesMore(track))
        arena.stopCallerVideo()   // the forged frames continue the real stream's numbering
        try await Task.sleep(for: .milliseconds(200))
        let template = try #require(arena.sent.rtp(from: "caller").last { ForgedPacket.ssrc($0) == videoSSRC })
        let header = Array(template.prefix(ForgedPacket.headerLength(template)))
        // VP8 payload descriptor (RFC 7741 §4.2: S=1, partition 0), then a key frame's tag, start
        // code and dimensions (RFC 6386 §9.1): 16383 wide and high, scale 0.
        let firstPartition: UInt32 = 16
        let tag = firstPartition << 5 | 1 << 4   // key frame (bit 0 clear), version 0, shown
        let keyframe: [UInt8] = [0x10, UInt8(tag & 0xff), UInt8(tag >> 8 & 0xff), UInt8(tag >> 16 & 0xff),
                                 0x9d, 0x01, 0x2a, 0xff, 0x3f, 0xff, 0x3f] + [UInt8](repeating: 0, count: 32)
        let failuresBefore = track.decodeFailures
        let before = await ProcessResources.settled()

        var sequence = ForgedPacket.sequenceNumber(template), timestamp = ForgedPacket.timestamp(template)
        for _ in 0..<5 {
            sequence &+= 1
            timestamp &+= 3_000
            try arena.sendRTP(ForgedPacket.rewrite(header, sequence: sequence, timestamp: timestamp, marker: true) + keyframe)
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(await eventually { track.decodeFailures > failuresBefore }, "decode failures \(track.decodeFailures)")
        await arena.expectSurvived(since: before, boundKiB: Self.rssBound)
    }

    @Test("5,000 .local candidates: at most 256 kept per section and 16 queried, the rest refused or dropped and counted")
    func thousandsOfMDNSCandidates() async throws {
        let arena = try await HostilePeerArena(callerVideo: false)
        defer { arena.close() }
        #expect(await arena.established(), "\(arena.call.diagnosis)")
        let dropped = arena.victimStat { $0.transport.remoteCandidatesDropped.map(Double.init) }
        let before = await ProcessResources.settled()

        var refused = 0
        for index in 0..<5_000 {
            let name = UUID().uuidString.lowercased() + ".local"
            do {
                try await arena.victim.addICECandidate(ICECandidateInit(
                    candidate: "candidate:\(index) 1 udp 2122260223 \(name) \(10_000 + index) typ host", sdpMid: "0"))
            } catch {
                refused += 1   // past JSEPSession.maximumRemoteCandidatesPerSection
            }
        }
        #expect(refused >= 5_000 - JSEPSession.maximumRemoteCandidatesPerSection)
        let thrown = Double(refused)
        // The rest reach ICE: past maximumMDNSCandidates dropped at once, the others when their
        // queries go unanswered.
        let limit = PeerConfiguration.loopback.ice.maximumMDNSCandidates
        #expect(await eventually { thrown + arena.victimStat { $0.transport.remoteCandidatesDropped.map(Double.init) } - dropped >= Double(5_000 - limit) },
                "refused \(thrown), dropped \(arena.victimStat { $0.transport.remoteCandidatesDropped.map(Double.init) } - dropped)")
        await arena.expectSurvived(since: before, boundKiB: Self.rssBound)
    }

    @Test("a re-offer with 8,000 m= sections: refused naming the line, the call stays as it was")
    func eightThousandSectionOffer() async throws {
        let arena = try await HostilePeerArena(callerVideo: false)
        defer { arena.close() }
        #expect(await arena.established(), "\(arena.call.diagnosis)")
        let before = await ProcessResources.settled()

        var sdp = "v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n"
        for mid in 0..<8_000 {
            sdp += "m=audio 9 UDP/TLS/RTP/SAVPF 111\r\nc=IN IP4 0.0.0.0\r\na=mid:\(mid)\r\na=sendrecv\r\na=rtcp-mux\r\n"
            sdp += "a=ice-ufrag:abcd\r\na=ice-pwd:abcdefghijklmnopqrstuvwx\r\na=setup:actpass\r\n"
            sdp += "a=fingerprint:sha-256 \(Array(repeating: "AB", count: 32).joined(separator: ":"))\r\na=rtpmap:111 opus/48000/2\r\n"
        }
        await #expect(throws: PeerConnectionError.self) {
            try await arena.victim.setRemoteDescription(JSEPDescription(type: .offer, sdp: sdp))
        }
        #expect(arena.victim.signalingState == .stable)
        let track = try #require(arena.atCallee.track(.audio))
        #expect(await receivesMore(track), "the victim's own call goes on")
        await arena.expectSurvived(since: before, boundKiB: Self.rssBound)
    }

    @Test("NACKs for every sequence number, 50 times a second: retransmissions stay within what was sent, the rest counted")
    func nackStorm() async throws {
        let arena = try await HostilePeerArena(victimIsCaller: true)
        defer { arena.close() }
        #expect(await arena.established(), "\(arena.call.diagnosis)")
        let videoSSRC = UInt32(arena.victimStat { $0.outbound(.video).map { Double($0.counters.ssrc) } })
        let before = await ProcessResources.settled()

        // 16 NACKs of 256 entries, each entry a packet and the 16 after it: all 65,536 numbers.
        let storm: [[UInt8]] = (0..<16).map { part in
            let entries = (0..<256).map { (UInt16(part * 256 + $0) &* 17, UInt16(0xffff)) }
            return ForgedPacket.emptyReceiverReport(sender: 0x0bad_f00d)
                + ForgedPacket.nack(sender: 0x0bad_f00d, media: videoSSRC, entries: entries)
        }
        for _ in 0..<100 {
            for packet in storm { try arena.sendRTCP(packet) }
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(await eventually { arena.victimStat { $0.outbound(.video).map { Double($0.nackRequestsRateLimited) } } > 0 })
        // One snapshot: a retransmission between two reads would be counted against the bytes of the earlier one.
        let video = arena.victim.getStats().outbound(.video)
        let sent = Double(video?.counters.bytesSent ?? 0), resent = Double(video?.counters.retransmittedBytesSent ?? 0)
        #expect(sent > 0)
        #expect(resent <= sent, "resent \(resent) of \(sent) bytes")
        await arena.expectSurvived(since: before, boundKiB: Self.rssBound)
    }

    @Test("transport-wide CC feedback declaring 65,535 packets in 36 bytes: parsed as runs or refused as malformed, never expanded")
    func forgedTransportFeedback() async throws {
        let arena = try await HostilePeerArena(victimIsCaller: true)
        defer { arena.close() }
        #expect(await arena.established(), "\(arena.call.diagnosis)")
        let videoSSRC = UInt32(arena.victimStat { $0.outbound(.video).map { Double($0.counters.ssrc) } })
        let malformedBefore = arena.victimStat { $0.transport.malformedPacketsDropped.map(Double.init) }
        let before = await ProcessResources.settled()

        let rr = ForgedPacket.emptyReceiverReport(sender: 0x0bad_f00d)
        // Not received (valid: a lost packet has no delta) and received without deltas (malformed).
        let lost = rr + ForgedPacket.transportFeedback(sender: 0x0bad_f00d, media: videoSSRC, count: 65_535, status: 0)
        let noDeltas = rr + ForgedPacket.transportFeedback(sender: 0x0bad_f00d, media: videoSSRC, count: 65_535, status: 1)
        for index in 0..<2_000 {
            try arena.sendRTCP(lost)
            try arena.sendRTCP(noDeltas)
            if index % 200 == 199 { try await Task.sleep(for: .milliseconds(5)) }
        }
        #expect(await eventually { arena.victimStat { $0.transport.malformedPacketsDropped.map(Double.init) } >= malformedBefore + 1_000 },
                "malformed \(malformedBefore) → \(arena.victimStat { $0.transport.malformedPacketsDropped.map(Double.init) })")
        await arena.expectSurvived(since: before, boundKiB: Self.rssBound)
    }
}
