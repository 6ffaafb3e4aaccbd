public import TernCore

/// The sender's side of transport-wide congestion control
/// (draft-holmer-rmcat-transport-wide-cc-extensions-01 §2): numbers every packet sent on the
/// transport, remembers when it left and how big it was, and turns the peer's feedback back
/// into per-packet send and arrival times for the bandwidth estimator. Sans-I/O.
///
/// Bounded: at most `capacity` packets are remembered (the oldest go first), so a peer that
/// never sends feedback costs a fixed amount of memory; feedback about forgotten or never-sent
/// sequence numbers is ignored and counted.
public struct SentPacketHistory: Sendable {
    /// One packet's fate, as the estimator needs it.
    public struct Feedback: Sendable, Equatable {
        /// The packet's transport-wide sequence number, unwrapped.
        public var sequence: Int64
        /// When it left (our clock).
        public var sendTime: Instant
        /// Its size on the wire, bytes.
        public var size: Int
        /// When it arrived, in the feedback sender's time base; nil when reported lost.
        public var arrival: Duration?

        public init(sequence: Int64, sendTime: Instant, size: Int, arrival: Duration?) {
            self.sequence = sequence
            self.sendTime = sendTime
            self.size = size
            self.arrival = arrival
        }
    }

    /// Packets remembered at most (about 8 s of a 1,000 packet/s stream).
    public let capacity: Int
    /// Send time and size of sequence number `s` at `s % capacity`, for the last `capacity` sent.
    private var ring: [(sendTime: Instant, size: Int)]
    private var next: Int64 = 0
    /// The oldest sequence number still remembered.
    private var oldest: Int64 { max(0, next - Int64(capacity)) }
    /// Feedback reports that named sequence numbers not (or no longer) remembered.
    public private(set) var unknownReports = 0
    /// Bytes sent and not yet covered by feedback (reported received or lost), nor forgotten:
    /// what is in flight for the congestion window.
    public private(set) var bytesInFlight = 0
    /// The highest sequence number feedback has covered (-1: none yet).
    private var highestReported: Int64 = -1

    /// The ring is allocated by the first `record` (128 KiB at the default capacity): a
    /// connection that never sends numbered RTP — data channels only — never pays for it.
    public init(capacity: Int = 8_192) {
        self.capacity = max(1, capacity)
        ring = []
    }

    /// The unwrapped sequence number `record` gives the next packet.
    public var nextUnwrappedSequence: Int64 { next }

    /// The sequence number to stamp on the next packet (the header extension's 16 bits),
    /// recorded as sent at `now` with `size` bytes.
    public mutating func record(size: Int, now: Instant) -> UInt16 {
        if ring.isEmpty { ring = Array(repeating: (.zero, 0), count: capacity) }
        let sequence = next
        next += 1
        let slot = Int(sequence % Int64(capacity))
        // The packet this one replaces is forgotten: no feedback on it will be read.
        if sequence >= Int64(capacity), sequence - Int64(capacity) > highestReported { bytesInFlight -= ring[slot].size }
        ring[slot] = (now, max(0, size))
        bytesInFlight += max(0, size)
        return UInt16(truncatingIfNeeded: sequence)
    }

    /// The packets a feedback packet reports on, oldest first: received ones with their
    /// arrival time, lost ones without. Sequence numbers are unwrapped against what was sent
    /// last (each report covers at most 65,535 packets, and only recent ones are remembered).
    public mutating func feedback(for report: TransportWideCC) -> [Feedback] {
        var out: [Feedback] = []
        let count = Int(report.packetStatusCount)
        guard count > 0, next > 0 else { return out }
        // Unwrap the base: the most recent sequence number with these low 16 bits, not after `next - 1`.
        let latest = next - 1
        var base = (latest & ~0xFFFF) | Int64(report.baseSequenceNumber)
        if base > latest { base -= 0x1_0000 }
        // Only the offsets that name packets still remembered are read (a hostile report may
        // declare 65,535 statuses in a few bytes); the rest are counted as unknown.
        let first = Int(max(0, oldest - base)), last = Int(min(Int64(count), next - base))
        guard first < last else {
            unknownReports &+= 1
            return out
        }
        if first > 0 || last < count { unknownReports &+= 1 }
        for (offset, result) in report.packetResults(in: first..<last).enumerated() {
            let sequence = base + Int64(first + offset)
            let record = ring[Int(sequence % Int64(capacity))]
            out.append(Feedback(sequence: sequence, sendTime: record.sendTime, size: record.size, arrival: result.arrival))
        }
        // Everything up to the last packet covered has landed or is lost: out of flight.
        let lastCovered = base + Int64(last) - 1
        var sequence = max(highestReported + 1, oldest)
        while sequence <= lastCovered {
            bytesInFlight -= ring[Int(sequence % Int64(capacity))].size
            sequence += 1
        }
        highestReported = max(highestReported, lastCovered)
        return out
    }
}
