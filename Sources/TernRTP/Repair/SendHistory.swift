public import TernCore

/// A bounded history of sent RTP packets, a ring buffer indexed by sequence
/// number, that answers NACKs (RFC 4585 §6.2.1) with retransmissions: the packet
/// itself, or an RTX packet (RFC 4588) when an `RTXEncoder` is configured.
/// A packet is resent at most once per RTT, and not at all once older than `maxAge`; while its
/// retransmission waits to leave (a pacer holds it) it is not queued again, and the RTT counts
/// from when it left (`retransmissionLeft`), as libwebrtc's packet history marks a packet
/// pending: behind a full bottleneck the receiver's NACKs repeat every RTT, and each answered
/// anew would queue the same packets over and over before any of them had gone.
///
/// Retransmissions are paid from a budget of payload bytes (the unit of W3C `bytesSent` and
/// `retransmittedBytesSent`) that each packet sent adds its payload to, up to
/// `retransmissionBurst`; a retransmission costs the payload it resends (with RTX, the
/// original's; the OSN is framing). However many NACKs a peer sends, what is resent over time is
/// at most what was sent (the stream's bitrate at most doubles), and at most a burst at once.
public struct SendHistory: Sendable {
    private struct Slot: Sendable {
        var packet: RTPPacket
        var sentAt: Instant
        var lastResent: Instant?
        /// A retransmission of it was handed out and has not left yet.
        var pending = false
    }

    private var slots: [Slot?]
    /// The RTX stream to retransmit on, or nil for plain retransmission.
    public var rtx: RTXEncoder?
    /// Packets older than this are not resent.
    public var maxAge: Duration
    /// Retransmissions produced, and requests that could not be served (evicted, too old, or too soon).
    public private(set) var retransmitted: UInt64 = 0
    /// Requests that could not be served (evicted, too old, or resent within one RTT).
    public private(set) var missed: UInt64 = 0
    /// Sequence numbers requested again in the same NACK (or another handled at the same
    /// instant): answered once. A NACK of 1,400 bytes can name one packet ~350 times over, and
    /// serving each would turn one small packet into a burst of retransmissions.
    public private(set) var duplicateRequests: UInt64 = 0
    /// Requests for a packet whose retransmission had not left yet.
    public private(set) var pendingRequests: UInt64 = 0
    /// Requests refused because the retransmission budget was spent (a NACK storm).
    public private(set) var rateLimitedRequests: UInt64 = 0
    /// The most bytes of retransmission the budget holds (256 KiB: a second of 2 Mbit/s video).
    public var retransmissionBurst = 256 * 1024
    /// Payload bytes that may still be retransmitted.
    private var budget = 0

    /// A history of `capacity` packets (the last `capacity` sequence numbers).
    public init(capacity: Int = 1024, rtx: RTXEncoder? = nil, maxAge: Duration = .seconds(2)) {
        slots = Array(repeating: nil, count: max(1, capacity))
        self.rtx = rtx
        self.maxAge = maxAge
    }

    /// Stores a sent packet (its payload slice keeps the sent buffer alive; no copy).
    public mutating func store(_ packet: RTPPacket, at now: Instant) {
        slots[Int(packet.sequenceNumber) % slots.count] = Slot(packet: packet, sentAt: now, lastResent: nil)
        budget = min(retransmissionBurst, budget + packet.payload.count)
    }

    /// The stored packet with `sequenceNumber`, if still held.
    public func packet(sequenceNumber: UInt16) -> RTPPacket? {
        guard let slot = slots[Int(sequenceNumber) % slots.count], slot.packet.sequenceNumber == sequenceNumber else { return nil }
        return slot.packet
    }

    /// Retransmissions answering `nack`, in request order. `rtt` (when known) stops the same
    /// packet being resent twice within ¾ of a round trip: duplicate NACKs of one loss are
    /// absorbed, while the receiver's next request, which it sends one RTT after the previous one
    /// and so arrives about one RTT after our resend (a little earlier with jitter), is served.
    public mutating func respond(to nack: GenericNACK, at now: Instant, rtt: Duration? = nil) -> [RTPPacket] {
        var out: [RTPPacket] = []
        for seq in nack.lostSequenceNumbers {
            let index = Int(seq) % slots.count
            guard var slot = slots[index], slot.packet.sequenceNumber == seq, now - slot.sentAt <= maxAge else {
                missed += 1
                continue
            }
            if slot.lastResent == now {
                duplicateRequests += 1
                continue
            }
            if slot.pending, let last = slot.lastResent, now - last < maxAge {
                pendingRequests += 1
                continue
            }
            if let last = slot.lastResent, let rtt, now - last < rtt * 3 / 4 {
                missed += 1
                continue
            }
            let cost = slot.packet.payload.count
            guard budget >= cost else {
                rateLimitedRequests += 1
                continue
            }
            budget -= cost
            slot.lastResent = now
            slot.pending = true
            slots[index] = slot
            if var encoder = rtx {
                out.append(encoder.wrap(slot.packet))
                rtx = encoder
            } else {
                out.append(slot.packet)
            }
            retransmitted += 1
        }
        return out
    }

    /// Forgets every packet held: the sender restarts its stream with a keyframe, and nothing
    /// before it is worth resending (requests for it count as `missed`).
    public mutating func forgetAll() {
        slots = Array(repeating: nil, count: slots.count)
    }

    /// A retransmission `respond` gave (`resent`: the RTX packet, or the original without RTX)
    /// left at `now`: the packet may be resent again one RTT from now. A retransmission that never
    /// leaves (dropped by a full pacer) stops holding its packet back after `maxAge`.
    public mutating func retransmissionLeft(_ resent: RTPPacket, at now: Instant) {
        guard let sequenceNumber = originalSequenceNumber(of: resent) else { return }
        retransmissionLeft(sequenceNumber: sequenceNumber, at: now)
    }

    /// The retransmission of the packet with `sequenceNumber` left at `now`.
    public mutating func retransmissionLeft(sequenceNumber: UInt16, at now: Instant) {
        let index = Int(sequenceNumber) % slots.count
        guard var slot = slots[index], slot.packet.sequenceNumber == sequenceNumber, slot.pending else { return }
        slot.pending = false
        slot.lastResent = now
        slots[index] = slot
    }

    /// The media payload bytes `resent` carries, what the budget charged for it: with RTX, its
    /// payload less the OSN (framing, as its header is); without, its payload.
    public func resentPayloadBytes(of resent: RTPPacket) -> Int {
        guard let rtx, resent.ssrc == rtx.ssrc else { return resent.payload.count }
        return max(0, resent.payload.count - RTXEncoder.osnSize)
    }

    /// The sequence number of the packet `resent` carries: with RTX, the OSN its payload starts
    /// with (RFC 4588 §4); without, its own.
    public func originalSequenceNumber(of resent: RTPPacket) -> UInt16? {
        guard let rtx, resent.ssrc == rtx.ssrc else { return resent.sequenceNumber }
        guard resent.payload.count >= 2 else { return nil }
        let start = resent.payload.startIndex
        return UInt16(resent.payload[start]) << 8 | UInt16(resent.payload[start + 1])
    }
}
