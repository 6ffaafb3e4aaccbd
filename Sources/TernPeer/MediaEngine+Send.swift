import TernCore
import TernMedia
import TernRTP
import TernSDP

/// Sending: payload units in, RTP packets queued for SRTP.
extension MediaEngine {

    /// Packetizes `units` on the stream with `ssrc` and queues the packets.
    mutating func send(_ units: [RTPPayloadUnit], ssrc: UInt32, now: Instant) -> Bool {
        guard var sender = senders[ssrc], sender.isActive else { return false }
        for unit in units {
            let numbered = sender.configuration.transportCCExtensionID != nil
            let packet = sender.makePacket(unit, transportSequence: numbered ? bandwidth.nextTransportSequenceNumber : nil)
            // Its size on the wire once SRTP added its tag (~16 bytes).
            if numbered { _ = bandwidth.packetSent(size: packet.wireSize + 16, now: now) }
            sender.statistics.recordSent(packet, at: now)
            if sender.configuration.nackEnabled { sender.history.store(packet, at: now) }
            queuedRTP.append(Self.serialize(packet))
        }
        sender.lastSentAt = now
        senders[ssrc] = sender
        return true
    }

    /// Numbers a retransmitted `packet` afresh for the bandwidth estimate: a new transport-wide
    /// sequence number in extension `id`, replacing the one the original carried.
    mutating func stampTransportSequence(_ packet: inout RTPPacket, id: UInt8, now: Instant) {
        var elements = (try? packet.headerExtension?.elements()) ?? []
        elements.removeAll { $0.id == id }
        // The element's 2 bytes and up to 2 of padding join the header; SRTP adds its tag (~16).
        let sequence = bandwidth.packetSent(size: packet.wireSize + 4 + 16, now: now)
        elements.append(RTPHeaderExtensionElement(id: id, value: [UInt8(sequence >> 8), UInt8(sequence & 0xFF)]))
        packet.headerExtension = RTPHeaderExtension(elements: elements)
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

    mutating func takeQueuedRTP() -> [[UInt8]] {
        defer { queuedRTP.removeAll(keepingCapacity: true) }
        return queuedRTP
    }

    mutating func takeQueuedRTCP() -> [[UInt8]] {
        defer { queuedRTCP.removeAll(keepingCapacity: true) }
        return queuedRTCP
    }

    /// Drops queued packets (no SRTP keys yet: media before DTLS is up is not sent).
    mutating func discardQueued() {
        queuedRTP.removeAll(keepingCapacity: true)
        queuedRTCP.removeAll(keepingCapacity: true)
    }
}
