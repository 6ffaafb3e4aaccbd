public import TernCore

/// Reception statistics of one remote source (SSRC), per RFC 3550 Appendix A:
/// A.1 sequence-number validation with probation, A.3 loss accounting, A.8
/// interarrival jitter. Sans-I/O: each packet comes with its arrival `Instant`.
///
/// Two departures from A.1, so the W3C counters say what arrived: the packets of a probation
/// run (and the first packet after a restart) count once the source is accepted, as libwebrtc
/// counts every packet from the first; and a packet whose extended sequence number already
/// arrived among the last `duplicateWindow` is a duplicate (`packetsDuplicated`), not counted
/// again — so `packetsLost` does not go negative when a retransmission and its original both
/// arrive.
public struct ReceiveStatistics: Sendable {
    /// RFC 3550 A.1 constants.
    public static let maxDropout: UInt16 = 3000
    /// RFC 3550 A.1 MAX_MISORDER.
    public static let maxMisorder: UInt16 = 100
    /// RFC 3550 A.1 MIN_SEQUENTIAL: packets in sequence before a source is valid.
    public static let minSequential = 2
    static let sequenceModulo: UInt32 = 1 << 16

    /// The source these statistics describe.
    public let ssrc: UInt32
    /// The RTP clock rate of the source's payload format (Hz).
    public let clockRate: UInt32

    // A.1 state.
    private var maxSeq: UInt16 = 0
    /// Sequence-number cycles (A.1 `cycles`), counted in units of 2^16 and kept 64-bit: a peer
    /// that jumps just under MAX_DROPOUT per packet wraps every ~22 packets, and a 32-bit count
    /// would overflow after ~1.4 M packets (A.1's C arithmetic wraps silently; Swift's traps).
    private var cycles: UInt64 = 0
    private var baseSeq: UInt32 = 0
    private var badSeq: UInt32 = sequenceModulo + 1
    private var probation = minSequential
    /// Payload and header bytes of the current probation run, counted if the source is accepted.
    private var probationBytes: [(payload: UInt64, header: UInt64)] = []
    private var started = false
    /// Packets counted as received (A.1 `received`).
    public private(set) var received: UInt64 = 0
    private var expectedPrior: Int64 = 0
    private var receivedPrior: UInt64 = 0

    // A.8 state.
    private var lastTransit: Int64?
    /// Interarrival jitter estimate in timestamp units (A.8, kept fractional).
    public private(set) var jitterUnits: Double = 0

    /// Payload bytes received, header bytes received, duplicates, packets dropped by validation.
    public private(set) var bytesReceived: UInt64 = 0
    /// RTP header and padding bytes received.
    public private(set) var headerBytesReceived: UInt64 = 0
    /// Packets A.1 judged invalid: a jump not confirmed by the next packet, or a probation run
    /// that broke off.
    public private(set) var packetsDiscardedByValidation: UInt64 = 0
    /// Packets whose sequence number had already arrived (not counted in `received`).
    public private(set) var packetsDuplicated: UInt64 = 0
    /// How far back duplicates are recognised, in sequence numbers.
    public static let duplicateWindow = 1_024
    /// Which of the last `duplicateWindow` extended sequence numbers arrived (a ring of bits).
    private var seen = [UInt64](repeating: 0, count: duplicateWindow / 64)
    /// The extended sequence number `seen` ends at; nil until the source is accepted.
    private var seenHighest: Int64?
    /// Arrival time of the last counted packet.
    public private(set) var lastPacketReceived: Instant?

    // Last SR from this source, for LSR/DLSR.
    private var lastSRMiddle: UInt32 = 0
    private var lastSRArrival: Instant?

    /// Empty statistics for the source `ssrc` at `clockRate` Hz.
    public init(ssrc: UInt32, clockRate: UInt32) {
        self.ssrc = ssrc
        self.clockRate = clockRate
    }

    /// Records one received RTP packet. Returns false while the source is on
    /// probation or when A.1 judges the sequence number invalid. A retransmission (`isRetransmission`,
    /// e.g. unwrapped from RTX) counts as received but does not feed the jitter
    /// estimate, whose transit time it would distort (as libwebrtc does).
    @discardableResult
    public mutating func record(sequenceNumber seq: UInt16, timestamp: UInt32, payloadBytes: Int, headerBytes: Int, at now: Instant,
                                isRetransmission: Bool = false) -> Bool {
        let payload = UInt64(max(0, payloadBytes)), header = UInt64(max(0, headerBytes))
        switch updateSequence(seq) {
        case .onProbation:
            probationBytes.append((payload, header))
            return false
        case .discarded:
            packetsDiscardedByValidation += 1
            return false
        case .accepted:
            for pending in probationBytes {
                bytesReceived += pending.payload
                headerBytesReceived += pending.header
            }
            probationBytes = []
        case .counted:
            break
        }
        bytesReceived += payload
        headerBytesReceived += header
        lastPacketReceived = now
        guard !isRetransmission else { return true }
        // A.8: transit = arrival (in RTP units) - timestamp; J += (|D| - J) / 16.
        let arrivalUnits = Int64((Int128(now.nanoseconds) * Int128(clockRate)) / 1_000_000_000)
        let transit = arrivalUnits &- Int64(timestamp)
        if let lastTransit {
            // Differences of 32-bit timestamps wrap: take them modulo 2^32 as signed.
            let d = Int64(Int32(truncatingIfNeeded: transit &- lastTransit))
            jitterUnits += (Double(d.magnitude) - jitterUnits) / 16
        }
        lastTransit = transit
        return true
    }

    /// Records one parsed packet.
    @discardableResult
    public mutating func record(_ packet: RTPPacket, at now: Instant, isRetransmission: Bool = false) -> Bool {
        record(sequenceNumber: packet.sequenceNumber, timestamp: packet.timestamp, payloadBytes: packet.payload.count,
               headerBytes: packet.headerSize + packet.padding.count, at: now, isRetransmission: isRetransmission)
    }

    private enum SequenceVerdict {
        /// Counted (or a duplicate, counted as such).
        case counted
        /// Counted, and it ended probation: the run's earlier packets count too.
        case accepted
        case onProbation
        case discarded
    }

    /// RFC 3550 A.1 `update_seq`, counting what arrived.
    private mutating func updateSequence(_ seq: UInt16) -> SequenceVerdict {
        if !started {
            // A.1: init_seq(s, seq); s->max_seq = seq - 1; s->probation = MIN_SEQUENTIAL.
            initSequence(seq)
            maxSeq = seq &- 1
            probation = Self.minSequential
            started = true
        }
        let udelta = seq &- maxSeq
        if probation > 0 {
            // Source is not valid until MIN_SEQUENTIAL packets in sequence have arrived.
            if seq == maxSeq &+ 1 {
                probation -= 1
                maxSeq = seq
                if probation == 0 {
                    startSequence(endingAt: seq, run: Self.minSequential)
                    return .accepted
                }
            } else {
                // The run broke off: its packets are not counted; this one starts a new run.
                packetsDiscardedByValidation += UInt64(probationBytes.count)
                probationBytes = []
                probation = Self.minSequential - 1
                maxSeq = seq
            }
            return .onProbation
        } else if udelta < Self.maxDropout {
            // In order, with a permissible gap (0: the highest again, a duplicate).
            if seq < maxSeq { cycles &+= UInt64(Self.sequenceModulo) }
            maxSeq = seq
            countArrival(Int64(clamping: extendedHighest))
        } else if UInt32(udelta) <= Self.sequenceModulo - UInt32(Self.maxMisorder) {
            // The sequence number made a very large jump.
            if UInt32(seq) == badSeq {
                // Two sequential packets: assume the other side restarted without telling us,
                // and count the first of them too.
                if packetsDiscardedByValidation > 0 { packetsDiscardedByValidation -= 1 }
                startSequence(endingAt: seq, run: 2)
            } else {
                badSeq = (UInt32(seq) + 1) & (Self.sequenceModulo - 1)
                return .discarded
            }
        } else {
            // Reordered (or a duplicate of an earlier packet): `maxSeq - seq` behind the highest.
            countArrival(Int64(clamping: extendedHighest) - Int64(maxSeq &- seq))
        }
        return .counted
    }

    /// Starts counting at a run of `run` consecutive packets ending at `seq` (all received).
    private mutating func startSequence(endingAt seq: UInt16, run: Int) {
        maxSeq = seq
        badSeq = Self.sequenceModulo + 1
        receivedPrior = 0
        expectedPrior = 0
        let first = Int64(seq) - Int64(run - 1)
        // A run across the wrap: its end is in the second cycle of the base.
        cycles = first < 0 ? UInt64(Self.sequenceModulo) : 0
        baseSeq = UInt32(first < 0 ? first + Int64(Self.sequenceModulo) : first)
        received = 0
        seenHighest = nil
        let end = Int64(clamping: extendedHighest)
        for ext in (end - Int64(run - 1))...end { countArrival(ext) }
    }

    private mutating func initSequence(_ seq: UInt16) {
        baseSeq = UInt32(seq)
        maxSeq = seq
        badSeq = Self.sequenceModulo + 1
        cycles = 0
        received = 0
        receivedPrior = 0
        expectedPrior = 0
    }

    /// Counts the packet with extended sequence number `ext` as received, unless it already was.
    private mutating func countArrival(_ ext: Int64) {
        let window = Int64(Self.duplicateWindow)
        if let highest = seenHighest {
            if ext > highest {
                if ext - highest >= window {
                    for index in seen.indices { seen[index] = 0 }
                } else {
                    for cleared in (highest + 1)...ext { setSeen(cleared, false) }
                }
                seenHighest = ext
            } else if highest - ext >= window {
                received += 1  // too old to tell
                return
            }
        } else {
            for index in seen.indices { seen[index] = 0 }
            seenHighest = ext
        }
        if isSeen(ext) {
            packetsDuplicated += 1
            return
        }
        setSeen(ext, true)
        received += 1
    }

    private func isSeen(_ ext: Int64) -> Bool {
        let index = Int(((ext % Int64(Self.duplicateWindow)) + Int64(Self.duplicateWindow)) % Int64(Self.duplicateWindow))
        return seen[index / 64] & (1 << UInt64(index % 64)) != 0
    }

    private mutating func setSeen(_ ext: Int64, _ value: Bool) {
        let index = Int(((ext % Int64(Self.duplicateWindow)) + Int64(Self.duplicateWindow)) % Int64(Self.duplicateWindow))
        if value { seen[index / 64] |= 1 << UInt64(index % 64) } else { seen[index / 64] &= ~(1 << UInt64(index % 64)) }
    }

    /// Extended highest sequence number received (A.3: cycles + max_seq), as the 32-bit field
    /// of a report block carries it (RFC 3550 §6.4.1: it wraps).
    public var extendedHighestSequence: UInt32 { UInt32(truncatingIfNeeded: extendedHighest) }

    /// The extended highest sequence number without the report block's 32-bit wrap.
    private var extendedHighest: UInt64 { cycles &+ UInt64(maxSeq) }

    /// Packets expected (A.3: extended_max - base_seq + 1), saturating rather than trapping.
    public var expected: Int64 {
        guard started, probation == 0 else { return 0 }
        return Int64(clamping: extendedHighest) &- Int64(baseSeq) &+ 1
    }

    /// Cumulative packets lost (A.3). Duplicates are not counted as received, so it is negative
    /// only for a duplicate older than `duplicateWindow`; reported at least 0.
    public var cumulativeLost: Int64 { max(0, expected &- Int64(clamping: received)) }

    /// Interarrival jitter in seconds (W3C `jitter`).
    public var jitterSeconds: Double { clockRate == 0 ? 0 : jitterUnits / Double(clockRate) }

    /// Records an SR from this source, for LSR/DLSR in the next report block.
    public mutating func recordSenderReport(_ ntp: NTPTimestamp, at now: Instant) {
        lastSRMiddle = ntp.middle32
        lastSRArrival = now
    }

    /// Builds this source's report block and starts a new loss interval (A.3:
    /// fraction lost is over the interval since the previous block).
    public mutating func makeReportBlock(at now: Instant) -> ReportBlock {
        let expectedNow = expected
        let expectedInterval = expectedNow &- expectedPrior
        expectedPrior = expectedNow
        let receivedInterval = Int64(clamping: received) &- Int64(clamping: receivedPrior)
        receivedPrior = received
        let lostInterval = expectedInterval &- receivedInterval
        let fraction: UInt8
        if expectedInterval <= 0 || lostInterval <= 0 {
            fraction = 0
        } else if lostInterval >= expectedInterval {
            fraction = 255
        } else {
            // lostInterval < expectedInterval ≤ 2^49: the product fits.
            fraction = UInt8(min(255, (lostInterval * 256) / expectedInterval))
        }
        // A.3: clamp cumulative loss to the signed 24-bit field.
        let lost = Int32(max(-0x80_0000, min(0x7F_FFFF, cumulativeLost)))
        var dlsr: UInt32 = 0
        if let arrival = lastSRArrival {
            // DLSR in units of 1/65536 s.
            let elapsed = max(0, (now - arrival).nanoseconds)
            dlsr = UInt32(truncatingIfNeeded: min(Int64(UInt32.max), (Int64(elapsed) << 16) / 1_000_000_000))
        }
        return ReportBlock(ssrc: ssrc, fractionLost: fraction, cumulativeLost: lost,
                           extendedHighestSequence: extendedHighestSequence,
                           jitter: UInt32(min(Double(UInt32.max), jitterUnits.rounded(.down))),
                           lastSenderReport: lastSRMiddle, delaySinceLastSenderReport: dlsr)
    }

    /// The W3C `RTCInboundRtpStreamStats` view of these statistics.
    public var inboundStats: InboundRTPStreamStats {
        InboundRTPStreamStats(ssrc: ssrc, packetsReceived: received, packetsLost: cumulativeLost, jitter: jitterSeconds,
                              bytesReceived: bytesReceived, headerBytesReceived: headerBytesReceived,
                              packetsDiscarded: packetsDiscardedByValidation)
    }
}
