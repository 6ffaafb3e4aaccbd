public import TernCore

/// A codec-agnostic video jitter buffer that reassembles frames from RTP packets.
///
/// Packets are ordered by extended sequence number (wraparound-safe) and grouped
/// by RTP timestamp. A frame is complete when its packets run contiguously from
/// one the depacketizer flags as a frame start up to one with the marker bit, all
/// with the same timestamp. Frames are released in sequence order. When the next
/// frame is incomplete but a later frame is complete, the assembler waits up to
/// `maxWait` (counted from the arrival of the oldest packet it holds) for the
/// missing packets (which NACK may recover), then drops what is
/// before the later frame and reports `keyframeNeeded` (the caller sends a PLI).
/// Sans-I/O: time comes in with each call; `nextTimeout` says when to call `poll`.
public struct FrameAssembler: Sendable {
    /// Tuning knobs.
    public struct Configuration: Sendable, Equatable {
        /// How long to wait for a missing packet before dropping its frame.
        public var maxWait: Duration
        /// Packets held at most; beyond this the oldest are dropped.
        public var maxBufferedPackets: Int

        /// A configuration; the defaults suit 30 fps video. 300 ms gives a lost packet three or more
        /// NACK rounds at RTTs up to ~100 ms, and one failed repair costs the frame plus every frame
        /// until the next keyframe (TernMediaPipelineTests holds 5 % loss to ≥ 99 % decoded).
        public init(maxWait: Duration = .milliseconds(300), maxBufferedPackets: Int = 2048) {
            self.maxWait = maxWait
            self.maxBufferedPackets = maxBufferedPackets
        }
    }

    /// A complete frame: its packets in sequence order.
    public struct Frame: Sendable, Equatable {
        /// The RTP timestamp shared by the packets.
        public var timestamp: UInt32
        /// The packets in sequence order.
        public var packets: [RTPPacket]
        /// Sequence number of the first packet.
        public var firstSequenceNumber: UInt16 { packets.first?.sequenceNumber ?? 0 }
        /// Sequence number of the last (marker) packet.
        public var lastSequenceNumber: UInt16 { packets.last?.sequenceNumber ?? 0 }
    }

    /// What one call produced.
    public struct Output: Sendable, Equatable {
        /// Frames completed, in decode order.
        public var frames: [Frame] = []
        /// Frames given up in this call.
        public var droppedFrames = 0
        /// A frame was lost: ask the sender for a keyframe (PLI, RFC 4585 §6.3.1).
        public var keyframeNeeded = false
    }

    private let isFrameStart: @Sendable (RTPPacket) -> Bool
    /// Tuning knobs; may be changed between calls.
    public var configuration: Configuration
    private var unwrapper = SequenceUnwrapper()
    private var buffered: [Int64: RTPPacket] = [:]
    private var arrival: [Int64: Instant] = [:]
    /// The keys of `buffered`, ascending; frames leave from the front.
    private var order: [Int64] = []
    private var nextExpected: Int64?
    private var blockedSince: Instant?

    /// Frames released complete.
    public private(set) var framesCompleted: UInt64 = 0
    /// Frames given up after waiting.
    public private(set) var framesDropped: UInt64 = 0
    /// Packets that arrived after their frame was released or dropped.
    public private(set) var latePackets: UInt64 = 0
    /// Packets received twice.
    public private(set) var duplicatePackets: UInt64 = 0

    /// - Parameter isFrameStart: from the media layer's depacketizer: whether a
    ///   packet begins a frame (e.g. VP8 S=1 with PID 0, H.264 FU-A S bit).
    public init(configuration: Configuration = Configuration(), isFrameStart: @escaping @Sendable (RTPPacket) -> Bool) {
        self.configuration = configuration
        self.isFrameStart = isFrameStart
    }

    /// Number of packets held.
    public var bufferedPacketCount: Int { buffered.count }

    /// When `poll` should next be called, or nil if nothing is waiting on time (then
    /// only a new packet can change anything).
    public var nextTimeout: Instant? { blockedSince.map { $0 + configuration.maxWait } }

    /// Adds one packet and returns what became ready.
    public mutating func insert(_ packet: RTPPacket, at now: Instant) -> Output {
        let ext = unwrapper.unwrap(packet.sequenceNumber)
        var output = Output()
        if let next = nextExpected, ext < next {
            latePackets += 1
            return output
        }
        if buffered[ext] != nil {
            duplicatePackets += 1
            return output
        }
        buffered[ext] = packet
        arrival[ext] = now
        insertOrdered(ext)
        if buffered.count > configuration.maxBufferedPackets { dropOverflow(into: &output) }
        release(at: now, into: &output)
        return output
    }

    /// Applies timeouts at `now`.
    public mutating func poll(now: Instant) -> Output {
        var output = Output()
        release(at: now, into: &output)
        return output
    }

    private mutating func release(at now: Instant, into output: inout Output) {
        while !buffered.isEmpty {
            guard let head = nextExpected ?? firstStart() else {
                // No frame start seen at all: the stream began mid-frame.
                if let first = order.first, let seen = arrival[first] {
                    if now - seen >= configuration.maxWait {
                        discard(below: (order.last ?? first) + 1, into: &output)
                    } else {
                        blockedSince = seen
                    }
                }
                return
            }
            if nextExpected == nil {
                nextExpected = head
                discardSilently(below: head)
            }
            if let end = completeFrameEnd(startingAt: head) {
                emit(from: head, through: end, into: &output)
                continue
            }
            // Blocked: wait for the gap, unless waited long enough and a later frame is complete.
            // The gap has existed since the oldest packet still held arrived, not since this
            // frame reached the head, so consecutive losses do not add up their waits.
            let since = order.first.flatMap { arrival[$0] } ?? now
            guard now - since >= configuration.maxWait else {
                blockedSince = since
                return
            }
            guard let later = order.first(where: { $0 > head && completeFrameEnd(startingAt: $0) != nil }) else {
                // Waited long enough, but nothing later is complete yet: no timer is needed,
                // the packet that completes a later frame releases it at once.
                blockedSince = nil
                return
            }
            discard(below: later, into: &output)
            nextExpected = later
        }
    }

    private func firstStart() -> Int64? {
        order.first { key in buffered[key].map(isFrameStart) ?? false }
    }

    /// The last sequence number of a complete frame beginning at `start`, if there is one.
    private func completeFrameEnd(startingAt start: Int64) -> Int64? {
        guard let first = buffered[start], isFrameStart(first) else { return nil }
        var seq = start
        var packet = first
        while true {
            if packet.marker { return seq }
            seq += 1
            guard let next = buffered[seq], next.timestamp == first.timestamp, !isFrameStart(next) else { return nil }
            packet = next
        }
    }

    private mutating func emit(from start: Int64, through end: Int64, into output: inout Output) {
        var packets: [RTPPacket] = []
        packets.reserveCapacity(Int(end - start + 1))
        for seq in start...end {
            if let p = buffered.removeValue(forKey: seq) { packets.append(p) }
            arrival[seq] = nil
        }
        removeOrdered(below: end + 1)
        output.frames.append(Frame(timestamp: packets.first?.timestamp ?? 0, packets: packets))
        framesCompleted += 1
        nextExpected = end + 1
        blockedSince = nil
    }

    /// Drops every packet below `limit`, counting the frames (distinct timestamps, at least one) lost.
    private mutating func discard(below limit: Int64, into output: inout Output) {
        var timestamps = Set<UInt32>()
        for key in order {
            guard key < limit else { break }
            if let p = buffered.removeValue(forKey: key) { timestamps.insert(p.timestamp) }
            arrival[key] = nil
        }
        removeOrdered(below: limit)
        let dropped = max(1, timestamps.count)
        framesDropped += UInt64(dropped)
        output.droppedFrames += dropped
        output.keyframeNeeded = true
        blockedSince = nil
        if let next = nextExpected { nextExpected = max(next, limit) }
    }

    private mutating func discardSilently(below limit: Int64) {
        for key in order {
            guard key < limit else { break }
            buffered[key] = nil
            arrival[key] = nil
        }
        removeOrdered(below: limit)
    }

    /// Inserts `key` keeping `order` ascending (usually an append: packets mostly arrive in order).
    private mutating func insertOrdered(_ key: Int64) {
        if let last = order.last, last > key {
            var low = 0, high = order.count
            while low < high {
                let mid = (low + high) / 2
                if order[mid] < key { low = mid + 1 } else { high = mid }
            }
            order.insert(key, at: low)
        } else {
            order.append(key)
        }
    }

    /// Removes the keys below `limit` from the front of `order`.
    private mutating func removeOrdered(below limit: Int64) {
        var count = 0
        while count < order.count, order[count] < limit { count += 1 }
        order.removeFirst(count)
    }

    private mutating func dropOverflow(into output: inout Output) {
        let excess = buffered.count - configuration.maxBufferedPackets
        guard excess > 0, excess < order.count else { return }
        let limit = order[excess]
        discard(below: limit, into: &output)
        nextExpected = nil
    }
}
