import TernCore
import TernMedia
import TernRTP
import TernSDP

/// An RTP packet waiting in the pacer, serialized; its transport-wide sequence number (at
/// `transportSequenceOffset`, when numbered) is filled in as it leaves.
struct PacedRTP: Sendable {
    var bytes: [UInt8]
    var transportSequenceOffset: Int?
}

/// Sending: payload units in, RTP packets through the pacer, out for SRTP.
extension MediaEngine {

    /// Packetizes `units` on the stream with `ssrc` and queues the packets in the pacer.
    mutating func send(_ units: [RTPPayloadUnit], ssrc: UInt32, now: Instant) -> Bool {
        guard var sender = senders[ssrc], sender.isActive else { return false }
        let numbered = sender.configuration.transportCCExtensionID
        let priority: Pacer<PacedRTP>.Priority = sender.configuration.kind == .audio ? .audio : .video
        for unit in units {
            // The number itself is given as the packet leaves the pacer (`takeQueuedRTP`).
            let packet = sender.makePacket(unit, transportSequence: numbered != nil ? 0 : nil)
            sender.statistics.recordSent(packet, at: now)
            if sender.configuration.nackEnabled { sender.history.store(packet, at: now) }
            pace(packet, transportCCExtensionID: numbered, priority: priority, now: now)
        }
        sender.lastSentAt = now
        senders[ssrc] = sender
        return true
    }

    /// Queues a retransmission (it leaves before new video), numbered afresh for the bandwidth
    /// estimate when the stream numbers its packets: its original's number is replaced.
    mutating func resend(_ packet: RTPPacket, transportCCExtensionID id: UInt8?, now: Instant) {
        var packet = packet
        if let id {
            var elements = (try? packet.headerExtension?.elements()) ?? []
            elements.removeAll { $0.id == id }
            elements.append(RTPHeaderExtensionElement(id: id, value: [0, 0]))
            packet.headerExtension = RTPHeaderExtension(elements: elements)
        }
        pace(packet, transportCCExtensionID: id, priority: .retransmission, now: now)
    }

    private mutating func pace(_ packet: RTPPacket, transportCCExtensionID id: UInt8?, priority: Pacer<PacedRTP>.Priority,
                               now: Instant) {
        let paced = PacedRTP(bytes: Self.serialize(packet),
                             transportSequenceOffset: id.flatMap { packet.serializedOffset(ofExtensionElement: $0) })
        // Its size on the wire once SRTP added its tag (~16 bytes).
        if !pacer.enqueue(paced, size: paced.bytes.count + 16, priority: priority, now: now) { packetsDroppedByPacer &+= 1 }
    }

    /// The packet's bytes in a buffer with room for the SRTP trailer, so protecting it in place
    /// does not reallocate (one allocation per packet on the send path).
    static func serialize(_ packet: RTPPacket) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(packet.wireSize + srtpTrailerRoom)
        packet.write(to: &bytes)
        return bytes
    }

    /// Room for any SRTP trailer SRTPSession appends (at most 20 bytes) with a wide margin.
    static let srtpTrailerRoom = 144

    /// The RTP packets the pacer lets go at `now` (at 2.5 × the bandwidth estimate), each
    /// given its transport-wide sequence number and send time as it leaves.
    mutating func takeQueuedRTP(now: Instant) -> [[UInt8]] {
        pacer.setTargetRate(bandwidth.targetRate)
        var out = pacer.poll(now: now)
        guard !out.isEmpty else { return [] }
        var packets: [[UInt8]] = []
        packets.reserveCapacity(out.count)
        for index in out.indices {
            if let offset = out[index].transportSequenceOffset, offset + 1 < out[index].bytes.count {
                let sequence = bandwidth.packetSent(size: out[index].bytes.count + 16, now: now)
                out[index].bytes[offset] = UInt8(sequence >> 8)
                out[index].bytes[offset + 1] = UInt8(truncatingIfNeeded: sequence)
            }
            packets.append(out[index].bytes)
        }
        return packets
    }

    mutating func takeQueuedRTCP() -> [[UInt8]] {
        defer { queuedRTCP.removeAll(keepingCapacity: true) }
        return queuedRTCP
    }

    /// Drops queued packets (no SRTP keys yet: media before DTLS is up is not sent).
    mutating func discardQueued() {
        pacer.discardQueued()
        queuedRTCP.removeAll(keepingCapacity: true)
    }
}
