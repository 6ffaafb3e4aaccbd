/// Reassembles VP8 frames from RTP payloads (RFC 7741 §4) received in order.
///
/// A frame is the run of payloads with one RTP timestamp, starting with a payload
/// whose descriptor has S = 1 and PID = 0 and ending with the RTP marker bit, with
/// consecutive sequence numbers. A frame with a missing first, middle or last
/// payload is dropped (counted in `statistics`) rather than handed to a decoder;
/// the caller should then ask for a keyframe (RTCP PLI). Reordering is the jitter
/// buffer's job: this assembler sees an out-of-order packet as a gap. An immediate
/// duplicate of the payload just accepted is discarded without harm.
///
/// Keyframes are recognised from the VP8 payload header (§4.3): in the first
/// payload of a frame, bit P (the lowest bit of the first byte) is 0 for a keyframe.
public struct VP8Depacketizer: Sendable {
    /// What the assembler has seen.
    public struct Statistics: Sendable, Equatable {
        /// Payloads accepted into a frame.
        public var payloadsAccepted = 0
        /// Payloads rejected as malformed (descriptor or payload header unreadable).
        public var payloadsMalformed = 0
        /// Payloads discarded because they belong to a frame already known to be incomplete.
        public var payloadsDiscarded = 0
        /// Frames completed and returned.
        public var framesCompleted = 0
        /// Frames abandoned because a payload was missing.
        public var framesDropped = 0
    }

    private struct Assembly {
        var timestamp: UInt32
        var expectedSequence: UInt16
        var data: [UInt8]
        var isKeyframe: Bool
        var pictureID: UInt16?
    }

    /// Counters; see `Statistics`.
    public private(set) var statistics = Statistics()
    private var assembly: Assembly?
    /// Timestamp of a frame known to be broken: its remaining payloads are discarded.
    private var brokenTimestamp: UInt32?
    /// Upper bound on a reassembled frame, against memory exhaustion by a hostile sender.
    public let maxFrameSize: Int

    /// An empty assembler. Frames larger than `maxFrameSize` bytes are dropped.
    public init(maxFrameSize: Int = 4 << 20) {
        self.maxFrameSize = maxFrameSize
    }

    /// Feeds one received payload (with its RTP marker, timestamp and sequence number).
    /// Returns the frame this payload completes, if any. Throws for a malformed
    /// payload, which is counted and also abandons the frame it belonged to.
    public mutating func push(_ unit: RTPPayloadUnit) throws(VP8PayloadError) -> EncodedVideoFrame? {
        let descriptor: VP8PayloadDescriptor
        let headerLength: Int
        do throws(VP8PayloadError) {
            (descriptor, headerLength) = try VP8PayloadDescriptor.parse(unit.payload)
            guard headerLength < unit.payload.count else { throw VP8PayloadError.emptyPayload(descriptorLength: headerLength) }
            if descriptor.startsFrame, unit.payload.count - headerLength < 3 {
                throw VP8PayloadError.truncatedPayloadHeader(available: unit.payload.count - headerLength)
            }
        } catch {
            statistics.payloadsMalformed += 1
            if let current = assembly, current.timestamp == unit.timestamp { abandon(current.timestamp) }
            throw error
        }
        let body = unit.payload[(unit.payload.startIndex + headerLength)...]

        if let current = assembly, current.timestamp == unit.timestamp,
           unit.sequenceNumber == current.expectedSequence &- 1 {
            statistics.payloadsDiscarded += 1   // a duplicate of the payload just accepted
            return nil
        }
        if descriptor.startsFrame {
            if let current = assembly { abandon(current.timestamp) }
            brokenTimestamp = nil
            // §4.3: P (bit 0 of the first payload-header byte) is 0 for a keyframe.
            let isKeyframe = VP8PayloadHeader(body)?.isKeyframe ?? false
            assembly = Assembly(timestamp: unit.timestamp, expectedSequence: unit.sequenceNumber &+ 1,
                                data: Array(body), isKeyframe: isKeyframe, pictureID: descriptor.pictureID?.value)
        } else if assembly.map({ $0.timestamp == unit.timestamp && $0.expectedSequence == unit.sequenceNumber }) == true {
            // Mutate in place (no local copy) so appending stays linear in the frame size.
            assembly?.data.append(contentsOf: body)
            assembly?.expectedSequence &+= 1
        } else {
            // A continuation without its start, or after a gap: that frame cannot be completed.
            if let current = assembly { abandon(current.timestamp) }
            if brokenTimestamp != unit.timestamp {
                brokenTimestamp = unit.timestamp
                statistics.framesDropped += 1
            }
            statistics.payloadsDiscarded += 1
            return nil
        }
        statistics.payloadsAccepted += 1

        guard let current = assembly else { return nil }
        if current.data.count > maxFrameSize {
            abandon(current.timestamp)
            return nil
        }
        guard unit.marker else { return nil }
        assembly = nil
        statistics.framesCompleted += 1
        return EncodedVideoFrame(timestamp: current.timestamp, isKeyframe: current.isKeyframe,
                                 data: current.data, pictureID: current.pictureID)
    }

    /// Abandons the frame in progress (e.g. when the jitter buffer gives up on a gap).
    public mutating func reset() {
        if let current = assembly { abandon(current.timestamp) }
        brokenTimestamp = nil
    }

    private mutating func abandon(_ timestamp: UInt32) {
        assembly = nil
        brokenTimestamp = timestamp
        statistics.framesDropped += 1
    }
}
