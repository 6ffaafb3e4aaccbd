import Synchronization
import Testing
import TernCore
import TernSDP
import TernTestSupport
@testable import TernPeer

/// A call between an attacker and a victim, and beside it, in the same process, a bystander call
/// (audio and a data channel) that must not notice the attack. The attacker speaks real ICE,
/// DTLS and SRTP: its forged packets are protected with its own keys and leave through its real
/// transport (`forge`), so the victim's stack sees what a hostile peer could send.
///
/// The caller sends audio and video (`MediaPump`) and opens a data channel; `victimIsCaller`
/// chooses which side attacks. Every packet each side sends is recorded (`sent`), so an attack
/// can copy real headers (mid extension, payload type, SSRC) and continue real sequence numbers.
final class HostilePeerArena: Sendable {
    let call: PeerPair
    let victimIsCaller: Bool
    let bystander: PeerPair
    let atCallee = TrackCollector()
    let atBystanderCallee = TrackCollector()
    let calleeChannel = ChannelSlot()
    let bystanderCalleeChannel = ChannelSlot()
    let callerChannel: DataChannel
    let bystanderChannel: DataChannel
    let sent = Sent()
    private let pumps: [MediaPump]
    private let tasks: [Task<Void, Never>]

    /// Outbound packets per side (first 200 and last 50 of each kind), as the packet tap saw them.
    final class Sent: Sendable {
        let packets = Mutex<[String: [[UInt8]]]>([:])
        func record(_ side: String, _ packet: TappedPacket) {
            guard packet.direction == .outbound else { return }
            let key = "\(side)-\(packet.kind.rawValue)"
            packets.withLock { all in
                var list = all[key, default: []]
                list.append(packet.bytes)
                if list.count > 250 { list.remove(at: 200) }
                all[key] = list
            }
        }
        func rtp(from side: String, payloadType: UInt8? = nil) -> [[UInt8]] {
            let list = packets.withLock { $0["\(side)-rtp"] ?? [] }
            guard let payloadType else { return list }
            return list.filter { $0.count > 12 && $0[1] & 0x7f == payloadType }
        }
    }

    var attacker: PeerConnection { victimIsCaller ? call.callee : call.caller }
    var victim: PeerConnection { victimIsCaller ? call.caller : call.callee }
    var attackerSide: String { victimIsCaller ? "callee" : "caller" }
    var victimSide: String { victimIsCaller ? "caller" : "callee" }

    init(victimIsCaller: Bool = false, callerVideo: Bool = true) async throws {
        self.victimIsCaller = victimIsCaller
        let sent = self.sent
        var callerConfig = PeerConfiguration.loopback, calleeConfig = PeerConfiguration.loopback
        callerConfig.packetTap = { sent.record("caller", $0) }
        calleeConfig.packetTap = { sent.record("callee", $0) }
        call = PeerPair(caller: try PeerConnection(configuration: callerConfig),
                        callee: try PeerConnection(configuration: calleeConfig))
        bystander = try PeerPair()
        let atCallee = self.atCallee, atBystanderCallee = self.atBystanderCallee
        let calleeChannel = self.calleeChannel, bystanderCalleeChannel = self.bystanderCalleeChannel
        tasks = call.startTrickle(onCallee: { event in
            atCallee.observe(event)
            if case let .dataChannel(channel) = event { calleeChannel.channel.withLock { $0 = channel } }
        }) + bystander.startTrickle(onCallee: { event in
            atBystanderCallee.observe(event)
            if case let .dataChannel(channel) = event { bystanderCalleeChannel.channel.withLock { $0 = channel } }
        })
        let audio = try call.caller.addTransceiver(.audio, direction: .sendonly)
        let video = callerVideo ? try call.caller.addTransceiver(.video, direction: .sendonly) : nil
        callerChannel = try call.caller.createDataChannel("attack-data")
        let bystanderAudio = try bystander.caller.addTransceiver(.audio, direction: .sendonly)
        bystanderChannel = try bystander.caller.createDataChannel("bystander-data")
        try await call.negotiate()
        try await bystander.negotiate()
        pumps = [MediaPump(audio: audio.sender, video: video?.sender, frequency: 440),
                 MediaPump(audio: bystanderAudio.sender, frequency: 660)]
    }

    /// Waits for both calls to carry media and data.
    func established() async -> Bool {
        let media = await eventually {
            atCallee.track(.audio) != nil && atBystanderCallee.track(.audio) != nil
                && callerChannel.readyState == .open && bystanderChannel.readyState == .open
                && calleeChannel.value != nil && bystanderCalleeChannel.value != nil
        }
        guard media, let track = atBystanderCallee.track(.audio) else { return false }
        return await receivesMore(track)
    }

    /// The bystander call still passes audio (its 660 Hz tone) and a data channel message.
    func bystanderGoesOn() async -> Bool {
        guard let track = atBystanderCallee.track(.audio), await receivesMore(track),
              let remote = bystanderCalleeChannel.value else { return false }
        let before = remote.counters.messagesReceived
        guard (try? bystanderChannel.send("still here")) != nil else { return false }
        let delivered = await eventually { remote.counters.messagesReceived > before }
        return delivered && atBystanderCallee.tone(on: track, among: [440, 660, 880]) == 660
    }

    /// Stops feeding the caller's camera, so forged video can continue its sequence numbers.
    func stopCallerVideo() {
        pumps.first?.setVideo(nil)
    }

    /// What every attack must leave behind: the victim still connected, resident memory grown
    /// by less than `boundKiB` since `before`, and the bystander call passing audio and data.
    func expectSurvived(since before: ProcessResources, boundKiB: Int,
                        sourceLocation: SourceLocation = #_sourceLocation) async {
        let after = await ProcessResources.settled()
        #expect(after.residentGrowth(since: before, isBelowKiB: boundKiB), "RSS \(before) → \(after)",
                sourceLocation: sourceLocation)
        // Connected, or back to connected: a flood that keeps the victim's loop thread busy for
        // seconds (20,000 packets under AddressSanitizer) may show as `disconnected` for a while.
        let victim = self.victim
        #expect(await eventually { victim.connectionState == .connected },
                "victim \(victim.connectionState)\nvictim's ICE:\n\(victim.iceTrace.map { "\($0)" } ?? "-")\nattacker's ICE:\n\(attacker.iceTrace.map { "\($0)" } ?? "-")",
                sourceLocation: sourceLocation)
        #expect(await bystanderGoesOn(), "the bystander call goes on", sourceLocation: sourceLocation)
    }

    /// Runs `body` on the attacker's transport core under its lock; datagrams it appends to the
    /// core's output leave over the attacker's ICE path.
    func forge(_ body: (TransportCore, Instant) throws -> Void) throws {
        let driver = try #require(attacker.objects.driver)
        try driver.perform { core, now in try body(core, now) }
    }

    /// Protects `packet` (RTP) with the attacker's SRTP keys and sends it.
    func sendRTP(_ packet: [UInt8]) throws {
        try forge { core, _ in
            var packet = packet
            if core.srtpOutbound?.protectRTP(&packet) == .ok { core.output.datagrams.append(packet) }
        }
    }

    /// Protects `packet` (RTCP) with the attacker's SRTP keys and sends it.
    func sendRTCP(_ packet: [UInt8]) throws {
        try forge { core, _ in
            var packet = packet
            if core.srtpOutbound?.protectRTCP(&packet) == .ok { core.output.datagrams.append(packet) }
        }
    }

    /// A value of the victim's `getStats()`, or -1 when the report does not have it.
    func victimStat(_ read: (StatsReport) -> Double?) -> Double {
        read(victim.getStats()) ?? -1
    }

    func close() {
        pumps.forEach { $0.stop() }
        tasks.forEach { $0.cancel() }
        atCallee.stop()
        atBystanderCallee.stop()
        call.close()
        bystander.close()
    }
}

/// The data channel a side announced (`.dataChannel` event), once it has.
final class ChannelSlot: Sendable {
    let channel = Mutex<DataChannel?>(nil)
    var value: DataChannel? { channel.withLock { $0 } }
}

/// RTP and RTCP bytes for attacks (RFC 3550 §5.1, §6.4; RFC 4585 §6.2.1).
enum ForgedPacket {
    /// The length of `packet`'s fixed header, CSRCs and header extension.
    static func headerLength(_ packet: [UInt8]) -> Int {
        var length = 12 + 4 * Int(packet[0] & 0x0f)
        if packet[0] & 0x10 != 0, packet.count >= length + 4 {
            length += 4 + 4 * (Int(packet[length + 2]) << 8 | Int(packet[length + 3]))
        }
        return length
    }

    static func sequenceNumber(_ packet: [UInt8]) -> UInt16 { UInt16(packet[2]) << 8 | UInt16(packet[3]) }
    static func timestamp(_ packet: [UInt8]) -> UInt32 { packet[4..<8].reduce(0) { $0 << 8 | UInt32($1) } }
    static func ssrc(_ packet: [UInt8]) -> UInt32 { packet[8..<12].reduce(0) { $0 << 8 | UInt32($1) } }

    /// `template` with another sequence number and timestamp (and marker bit, if given).
    static func rewrite(_ template: [UInt8], sequence: UInt16, timestamp: UInt32, marker: Bool? = nil) -> [UInt8] {
        var packet = template
        packet[2] = UInt8(sequence >> 8); packet[3] = UInt8(sequence & 0xff)
        packet.replaceSubrange(4..<8, with: bigEndian(timestamp))
        if let marker { packet[1] = marker ? packet[1] | 0x80 : packet[1] & 0x7f }
        return packet
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)]
    }

    /// An empty receiver report (RFC 3550 §6.4.2), first in a compound packet.
    static func emptyReceiverReport(sender: UInt32) -> [UInt8] {
        [0x80, 201, 0, 1] + bigEndian(sender)
    }

    /// A generic NACK (RFC 4585 §6.2.1) for `media`, one FCI entry per (packet id, bitmask).
    static func nack(sender: UInt32, media: UInt32, entries: [(UInt16, UInt16)]) -> [UInt8] {
        var packet: [UInt8] = [0x81, 205] + [UInt8((2 + entries.count) >> 8), UInt8((2 + entries.count) & 0xff)]
        packet += bigEndian(sender) + bigEndian(media)
        for (id, mask) in entries { packet += [UInt8(id >> 8), UInt8(id & 0xff), UInt8(mask >> 8), UInt8(mask & 0xff)] }
        return packet
    }

    /// Transport-wide CC feedback (draft-holmer-rmcat-transport-wide-cc-extensions-01 §3.1) whose
    /// chunks are all run-length chunks of `status` (0 not received, 1 small delta), declaring
    /// `count` packets, with no receive deltas at all.
    static func transportFeedback(sender: UInt32, media: UInt32, count: UInt16, status: UInt16) -> [UInt8] {
        var chunks: [UInt8] = []
        var left = Int(count)
        while left > 0 {
            let run = min(left, 8191)
            let chunk = status << 13 | UInt16(run)
            chunks += [UInt8(chunk >> 8), UInt8(chunk & 0xff)]
            left -= run
        }
        while chunks.count % 4 != 0 { chunks.append(0) }
        var body = bigEndian(sender) + bigEndian(media)
        body += [0, 1, UInt8(count >> 8), UInt8(count & 0xff), 0, 0, 1, 0] + chunks
        let words = body.count / 4
        return [0x8f, 205, UInt8(words >> 8), UInt8(words & 0xff)] + body
    }
}
