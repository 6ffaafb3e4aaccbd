public import TernCore

/// Puts received audio packets back in sequence order and says where packets are missing, so the
/// decoder runs in order and conceals gaps (Opus FEC or PLC) instead of playing packets in arrival
/// order with holes, which distorts the decoded audio on any link that reorders.
///
/// Packets are released as soon as they are next in sequence. When the next one is missing but a
/// later one is held, the buffer waits up to `maxWait` (counted from the arrival of the oldest
/// packet it holds) for it, then reports the gap as `.lost(count:)` and goes on. A packet older than
/// what was already released is late and dropped (counted). No playout clock: the release order is
/// what this guarantees; pacing belongs to the audio device. Sans-I/O: time comes in with each call.
public struct AudioReorderBuffer: Sendable {
    /// Tuning knobs.
    public struct Configuration: Sendable, Equatable {
        /// How long a later packet waits for a missing earlier one (three 20 ms frames by default:
        /// reordering on real paths is mostly within a few frames; longer adds delay to every gap).
        public var maxWait: Duration
        /// Packets held at most; beyond this the oldest gap is given up at once.
        public var maxHeld: Int

        /// A configuration; the defaults suit 20 ms Opus frames.
        public init(maxWait: Duration = .milliseconds(60), maxHeld: Int = 50) {
            self.maxWait = maxWait
            self.maxHeld = maxHeld
        }
    }

    /// What the buffer releases, in order.
    public enum Output: Sendable, Equatable {
        /// The next packet in sequence.
        case packet(RTPPacket)
        /// `count` packets before the next released one will not come: conceal them.
        case lost(count: Int)
    }

    public let configuration: Configuration
    private var unwrapper = SequenceUnwrapper()
    private var nextExpected: Int64?
    private var held: [Int64: (packet: RTPPacket, arrival: Instant)] = [:]

    /// Packets that arrived after their place was released or reported lost.
    public private(set) var latePackets = 0
    /// Packets received twice.
    public private(set) var duplicatePackets = 0
    /// Packets reported lost.
    public private(set) var lostPackets = 0

    /// Creates an empty buffer.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Takes a received packet; returns what can be released now.
    public mutating func insert(_ packet: RTPPacket, at now: Instant) -> [Output] {
        let sequence = unwrapper.unwrap(packet.sequenceNumber)
        let expected = nextExpected ?? sequence
        nextExpected = expected
        guard sequence >= expected else {
            latePackets += 1
            return []
        }
        guard held[sequence] == nil else {
            duplicatePackets += 1
            return []
        }
        held[sequence] = (packet, now)
        return poll(now: now)
    }

    /// Releases what is due at `now`: packets next in sequence, and gaps waited on long enough.
    public mutating func poll(now: Instant) -> [Output] {
        guard var expected = nextExpected else { return [] }
        var out: [Output] = []
        while !held.isEmpty {
            if let entry = held.removeValue(forKey: expected) {
                out.append(.packet(entry.packet))
                expected += 1
                continue
            }
            guard held.count > configuration.maxHeld || oldestArrival.map({ now - $0 >= configuration.maxWait }) == true,
                  let next = held.keys.min() else { break }
            let missing = Int(next - expected)
            lostPackets += missing
            out.append(.lost(count: missing))
            expected = next
        }
        nextExpected = expected
        return out
    }

    /// When `poll` next has something to do, or nil when nothing waits.
    public var nextTimeout: Instant? { oldestArrival.map { $0 + configuration.maxWait } }

    private var oldestArrival: Instant? { held.values.map(\.arrival).min() }
}
