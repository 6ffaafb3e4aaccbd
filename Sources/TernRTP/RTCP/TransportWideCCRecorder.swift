public import TernCore

/// Receive side of transport-wide congestion control: records the arrival time
/// of each packet's transport-wide sequence number (the header extension of
/// draft-holmer-rmcat-transport-wide-cc-extensions-01 §2) and builds feedback
/// packets covering everything received since the previous feedback.
/// Sans-I/O: arrivals come with their `Instant`; the caller decides when to send
/// (libwebrtc sends every 50–250 ms).
public struct TransportWideCCRecorder: Sendable {
    private var unwrapper = SequenceUnwrapper()
    private var arrivals: [Int64: Instant] = [:]
    /// The first sequence number the next feedback starts at.
    private var nextUnreported: Int64?
    private var feedbackCount: UInt8 = 0
    private var newest: Int64?
    /// Arrivals older than this many sequence numbers behind the newest are forgotten.
    public var maxSpan: Int64 = 0x4000

    /// A recorder with nothing recorded.
    public init() {}

    /// Number of arrivals not yet reported.
    public var pendingCount: Int { arrivals.count }

    /// Records one packet's transport-wide sequence number and arrival time.
    public mutating func record(transportSequenceNumber seq: UInt16, at now: Instant) {
        let ext = unwrapper.unwrap(seq)
        if let start = nextUnreported, ext < start { return }  // already reported
        if arrivals[ext] == nil { arrivals[ext] = now }
        if nextUnreported == nil { nextUnreported = ext }
        newest = max(newest ?? ext, ext)
        // Bound memory: forget what is too far behind (rare: only after a long outage of feedback).
        if let newest, let start = nextUnreported, newest - start > maxSpan {
            let floor = newest - maxSpan
            arrivals = arrivals.filter { $0.key >= floor }
            nextUnreported = arrivals.keys.min()
        }
    }

    /// A feedback packet for the packets from the first unreported sequence number
    /// to the newest received, or nil when nothing arrived since the last one.
    /// Arrival times are sent relative to `Instant.zero`.
    public mutating func makeFeedback(senderSSRC: UInt32, mediaSSRC: UInt32) -> TransportWideCC? {
        guard let start = nextUnreported, let newest, !arrivals.isEmpty else { return nil }
        let span = Int(min(newest - start + 1, 0xFFFF))
        let times: [Duration?] = (0..<span).map { offset in
            arrivals[start + Int64(offset)].map { .nanoseconds($0.nanoseconds) }
        }
        let feedback = TransportWideCC(senderSSRC: senderSSRC, mediaSSRC: mediaSSRC, feedbackPacketCount: feedbackCount,
                                       baseSequenceNumber: UInt16(truncatingIfNeeded: start), arrivals: times)
        // The builder may stop early (a delta beyond ±8191.75 ms): the rest goes in the next feedback.
        let covered = max(1, Int64(feedback.packetStatusCount))
        for seq in start..<(start + covered) { arrivals[seq] = nil }
        nextUnreported = arrivals.isEmpty ? start + covered : max(start + covered, arrivals.keys.min() ?? start + covered)
        feedbackCount &+= 1
        return feedback
    }
}
