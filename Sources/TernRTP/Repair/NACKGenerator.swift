public import TernCore

/// Receive-side loss detection that asks for retransmissions with generic NACKs
/// (RFC 4585 §6.2.1). Sans-I/O: the caller reports each packet's sequence number
/// with `now`, then calls `poll(now:rtt:)` when `nextTimeout` passes.
///
/// A missing packet is requested once it has been missing for the reordering allowance, then
/// again every max(RTT, minimum interval) until it arrives, `maxRetries` requests were sent, or
/// it is older than `maxAge`. The allowance learns from the link: a packet that arrives late
/// (before its request, or sooner after it than a retransmission could) is a sample of
/// reordering, and the allowance is the 90th percentile of the recent samples, between
/// `reorderingDelay` and `maximumReorderingDelay` — so a link that reorders stops causing
/// retransmissions of packets that were only late, and one that only loses is repaired at once. When more than `maxMissing` packets are outstanding the oldest
/// are given up and `keyframeRequested` is set (the caller sends a PLI).
public struct NACKGenerator: Sendable {
    /// Tuning knobs; the defaults follow libwebrtc's NackRequester.
    public struct Configuration: Sendable, Equatable {
        /// Requests per packet before giving up.
        public var maxRetries: Int
        /// How long a packet stays worth requesting.
        public var maxAge: Duration
        /// Lower bound on the interval between requests for one packet.
        public var minResendInterval: Duration
        /// RTT assumed before one is measured.
        public var defaultRTT: Duration
        /// Packets tracked as missing at most; beyond, the oldest are given up and a keyframe requested.
        public var maxMissing: Int
        /// How long a gap may be reordering before the first request, at least (0: request at
        /// once, as libwebrtc does by default).
        public var reorderingDelay: Duration
        /// The most the learnt reordering allowance may reach (0: nothing learnt, the allowance
        /// stays `reorderingDelay`).
        public var maximumReorderingDelay: Duration

        /// Creates a value from its fields.
        public init(maxRetries: Int = 10, maxAge: Duration = .seconds(1), minResendInterval: Duration = .milliseconds(5),
                    defaultRTT: Duration = .milliseconds(100), maxMissing: Int = 1000, reorderingDelay: Duration = .zero,
                    maximumReorderingDelay: Duration = .zero) {
            self.reorderingDelay = reorderingDelay
            self.maximumReorderingDelay = maximumReorderingDelay
            self.maxRetries = maxRetries
            self.maxAge = maxAge
            self.minResendInterval = minResendInterval
            self.defaultRTT = defaultRTT
            self.maxMissing = maxMissing
        }
    }

    private struct Missing: Sendable {
        var detected: Instant
        var lastRequested: Instant?
        var retries: Int
    }

    /// SSRC of the packet sender (the reporter).
    public let senderSSRC: UInt32
    /// SSRC of the media source the feedback is about.
    public let mediaSSRC: UInt32
    /// Tuning knobs; may be changed between calls.
    public var configuration: Configuration
    private var unwrapper = SequenceUnwrapper()
    private var highest: Int64?
    private var missing: [Int64: Missing] = [:]

    /// Set when packets were given up for overflow or a huge gap; cleared by `takeKeyframeRequest()`.
    public private(set) var keyframeRequested = false
    /// NACK packets produced, sequence numbers requested (with repeats), packets recovered after a request, packets given up.
    public private(set) var nackPacketsSent: UInt64 = 0
    /// Sequence numbers requested, counting repeats.
    public private(set) var requestsSent: UInt64 = 0
    /// Packets that arrived after being requested.
    public private(set) var recovered: UInt64 = 0
    /// Packets no longer requested (retries, age or overflow).
    public private(set) var givenUp: UInt64 = 0
    /// Requests for packets that then arrived sooner than a retransmission could have: they were
    /// late, not lost.
    public private(set) var spuriousRequests: UInt64 = 0
    /// How long a gap waits before its first request now (see the type's description).
    public private(set) var reorderingAllowance: Duration = .zero
    /// Recent lateness of reordered packets (when seen, how late), at most `reorderingSampleLimit`.
    private var reorderingSamples: [(at: Instant, lateness: Duration)] = []
    private static let reorderingSampleLimit = 32
    private static let reorderingSampleLifetime: Duration = .seconds(10)
    /// The RTT `poll` was last given: a packet arriving sooner than half of it after its
    /// request is the original, late.
    private var lastRTT: Duration?

    /// A generator sending NACKs from `senderSSRC` about `mediaSSRC`.
    public init(senderSSRC: UInt32, mediaSSRC: UInt32, configuration: Configuration = Configuration()) {
        self.senderSSRC = senderSSRC
        self.mediaSSRC = mediaSSRC
        self.configuration = configuration
        reorderingAllowance = configuration.reorderingDelay
    }

    /// Sequence numbers currently considered missing, oldest first.
    public var missingSequenceNumbers: [UInt16] {
        missing.keys.sorted().map { UInt16(truncatingIfNeeded: $0) }
    }

    /// Records an arrival (original or recovered by retransmission).
    public mutating func received(sequenceNumber: UInt16, at now: Instant) {
        let ext = unwrapper.unwrap(sequenceNumber)
        guard let top = highest else {
            highest = ext
            return
        }
        if ext > top {
            let gap = ext - top - 1
            if gap > Int64(configuration.maxMissing) {
                // Too much lost to repair: start over from here.
                givenUp += UInt64(missing.count) + UInt64(gap)
                missing.removeAll()
                keyframeRequested = true
            } else if gap > 0 {
                for seq in (top + 1)..<ext { missing[seq] = Missing(detected: now, lastRequested: nil, retries: 0) }
            }
            highest = ext
            trimOverflow()
        } else if let entry = missing.removeValue(forKey: ext) {
            let rtt = lastRTT ?? configuration.defaultRTT
            if entry.retries == 0 {
                learnReordering(lateness: now - entry.detected, at: now)
            } else if entry.retries == 1, let requested = entry.lastRequested, now - requested < rtt / 2 {
                spuriousRequests += 1
                learnReordering(lateness: now - entry.detected, at: now)
            } else {
                recovered += 1
            }
        }
    }

    private mutating func learnReordering(lateness: Duration, at now: Instant) {
        guard configuration.maximumReorderingDelay > .zero else { return }
        reorderingSamples.append((now, lateness))
        if reorderingSamples.count > Self.reorderingSampleLimit { reorderingSamples.removeFirst() }
        updateReorderingAllowance(now: now)
    }

    private mutating func updateReorderingAllowance(now: Instant) {
        reorderingSamples.removeAll { now - $0.at > Self.reorderingSampleLifetime }
        let sorted = reorderingSamples.map(\.lateness).sorted()
        let percentile = sorted.isEmpty ? Duration.zero : sorted[min(sorted.count - 1, sorted.count * 9 / 10)]
        // A little above the observed lateness, so a packet exactly that late is not requested.
        let learnt = min(configuration.maximumReorderingDelay, percentile + .milliseconds(1))
        reorderingAllowance = max(configuration.reorderingDelay, sorted.isEmpty ? .zero : learnt)
    }

    /// Clears and returns the keyframe request flag.
    public mutating func takeKeyframeRequest() -> Bool {
        defer { keyframeRequested = false }
        return keyframeRequested
    }

    /// A NACK for every missing packet due for a (re)request at `now`, or nil.
    /// `rtt` is the current round-trip estimate (nil: `defaultRTT`).
    public mutating func poll(now: Instant, rtt: Duration? = nil) -> GenericNACK? {
        if let rtt { lastRTT = rtt }
        if let oldest = reorderingSamples.first, now - oldest.at > Self.reorderingSampleLifetime {
            updateReorderingAllowance(now: now)
        }
        let interval = max(rtt ?? configuration.defaultRTT, configuration.minResendInterval)
        var due: [UInt16] = []
        for seq in missing.keys.sorted() {
            guard var entry = missing[seq] else { continue }
            if now - entry.detected > configuration.maxAge || entry.retries >= configuration.maxRetries {
                missing[seq] = nil
                givenUp += 1
                continue
            }
            if let last = entry.lastRequested {
                if now - last < interval { continue }
            } else if now - entry.detected < reorderingAllowance {
                continue
            }
            entry.lastRequested = now
            entry.retries += 1
            missing[seq] = entry
            due.append(UInt16(truncatingIfNeeded: seq))
        }
        guard !due.isEmpty else { return nil }
        nackPacketsSent += 1
        requestsSent += UInt64(due.count)
        return GenericNACK(senderSSRC: senderSSRC, mediaSSRC: mediaSSRC, lost: due)
    }

    /// When `poll` next has something to do (a request or an expiry), or nil when nothing is missing.
    public func nextTimeout(rtt: Duration? = nil) -> Instant? {
        let interval = max(rtt ?? configuration.defaultRTT, configuration.minResendInterval)
        var earliest: Instant?
        for entry in missing.values {
            let request = entry.lastRequested.map { $0 + interval } ?? entry.detected + reorderingAllowance
            let next = min(request, entry.detected + configuration.maxAge)
            earliest = min(earliest ?? next, next)
        }
        return earliest
    }

    private mutating func trimOverflow() {
        guard missing.count > configuration.maxMissing else { return }
        for seq in missing.keys.sorted().prefix(missing.count - configuration.maxMissing) {
            missing[seq] = nil
            givenUp += 1
        }
        keyframeRequested = true
    }
}
