/// Transport-wide congestion control feedback, RTPFB (PT=205) FMT=15
/// (draft-holmer-rmcat-transport-wide-cc-extensions-01 §3.1).
///
///   0                   1                   2                   3
///   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
///  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///  |V=2|P|  FMT=15 |    PT=205     |           length              |
///  |                     SSRC of packet sender                     |
///  |                      SSRC of media source                     |
///  |      base sequence number     |      packet status count      |
///  |                 reference time                | fb pkt. count |
///  |          packet chunk         |         packet chunk          |
///  .                                                               .
///  |         packet chunk          |  recv delta   |  recv delta   |
///  .                                                               .
///  |           recv delta          |  recv delta   | zero padding  |
///  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///
/// Reference time is a signed 24-bit count of 64 ms; receive deltas are in
/// 250 µs ticks: one unsigned byte for "small", two signed bytes for "large".
public struct TransportWideCC: Sendable, Equatable {
    /// The RTCP packet type (PT).
    public static let packetType: UInt8 = 205
    /// The feedback message type (FMT) in the count field.
    public static let format: UInt8 = 15
    /// One receive-delta tick.
    public static let deltaTick: Duration = .microseconds(250)
    /// One reference-time unit.
    public static let referenceTimeUnit: Duration = .milliseconds(64)

    /// The status of one packet (§3.1.1).
    public enum Status: UInt8, Sendable {
        case notReceived = 0
        case receivedSmallDelta = 1
        case receivedLargeOrNegativeDelta = 2
        /// Reserved by the draft; a parser rejects it when a delta would be needed.
        case reserved = 3
    }

    /// A packet status chunk (§3.1.3, §3.1.4).
    public enum Chunk: Sendable, Equatable {
        /// T=0: `length` packets (13 bits) share one status.
        case runLength(Status, length: UInt16)
        /// T=1, S=0: 14 one-bit symbols (not received / small delta).
        case oneBitVector([Status])
        /// T=1, S=1: 7 two-bit symbols.
        case twoBitVector([Status])

        /// How many statuses the chunk holds.
        public var symbolCount: Int {
            switch self {
            case let .runLength(_, length): Int(length)
            case .oneBitVector: 14
            case .twoBitVector: 7
            }
        }

        /// Decodes a 16-bit chunk.
        public init(_ raw: UInt16) {
            if raw & 0x8000 == 0 {
                self = .runLength(Status(rawValue: UInt8((raw >> 13) & 0x3)) ?? .reserved, length: raw & 0x1FFF)
            } else if raw & 0x4000 == 0 {
                self = .oneBitVector((0..<14).map { i in (raw >> (13 - i)) & 1 == 1 ? .receivedSmallDelta : .notReceived })
            } else {
                self = .twoBitVector((0..<7).map { i in Status(rawValue: UInt8((raw >> (12 - 2 * i)) & 0x3)) ?? .reserved })
            }
        }

        /// The 16-bit wire form.
        public var raw: UInt16 {
            switch self {
            case let .runLength(status, length):
                return UInt16(status.rawValue) << 13 | (length & 0x1FFF)
            case let .oneBitVector(symbols):
                var value: UInt16 = 0x8000
                for (i, s) in symbols.prefix(14).enumerated() where s != .notReceived { value |= 1 << (13 - i) }
                return value
            case let .twoBitVector(symbols):
                var value: UInt16 = 0xC000
                for (i, s) in symbols.prefix(7).enumerated() { value |= UInt16(s.rawValue) << (12 - 2 * i) }
                return value
            }
        }
    }

    /// One packet's fate as reported.
    public struct PacketResult: Sendable, Equatable {
        /// The packet's sequence number.
        public var sequenceNumber: UInt16
        /// Its reported status.
        public var status: Status
        /// Arrival time in the feedback sender's time base (reference time × 64 ms plus the
        /// deltas so far), for received packets; nil for packets not received.
        public var arrival: Duration?
    }

    /// SSRC of the packet sender (the reporter).
    public var senderSSRC: UInt32
    /// SSRC of the media source the feedback is about.
    public var mediaSSRC: UInt32
    /// Transport-wide sequence number of the first packet reported.
    public var baseSequenceNumber: UInt16
    /// Number of packets reported, from the base sequence number on.
    public var packetStatusCount: UInt16
    /// Signed 24-bit multiple of 64 ms.
    public var referenceTime: Int32
    /// Counter of feedback packets sent, to detect their loss.
    public var feedbackPacketCount: UInt8
    /// The chunks, one per source.
    public var chunks: [Chunk]
    /// Receive deltas in 250 µs ticks, one per received packet in order.
    public var recvDeltas: [Int16]

    /// Creates a value from its fields.
    public init(senderSSRC: UInt32, mediaSSRC: UInt32, baseSequenceNumber: UInt16, packetStatusCount: UInt16,
                referenceTime: Int32, feedbackPacketCount: UInt8, chunks: [Chunk], recvDeltas: [Int16]) {
        self.senderSSRC = senderSSRC
        self.mediaSSRC = mediaSSRC
        self.baseSequenceNumber = baseSequenceNumber
        self.packetStatusCount = packetStatusCount
        self.referenceTime = referenceTime
        self.feedbackPacketCount = feedbackPacketCount
        self.chunks = chunks
        self.recvDeltas = recvDeltas
    }

    /// The statuses of the `packetStatusCount` packets, in sequence order.
    public var statuses: [Status] {
        var out: [Status] = []
        out.reserveCapacity(Int(packetStatusCount))
        for chunk in chunks {
            switch chunk {
            case let .runLength(status, length): out.append(contentsOf: repeatElement(status, count: Int(length)))
            case let .oneBitVector(symbols), let .twoBitVector(symbols): out.append(contentsOf: symbols)
            }
            if out.count >= Int(packetStatusCount) { break }
        }
        return Array(out.prefix(Int(packetStatusCount)))
    }

    /// The results of the packets at offsets `range` from the base (clamped to the status
    /// count), walking the chunks without expanding the ones before the range: a run-length
    /// chunk is skipped in one step, so a 36-byte report declaring 65,535 statuses costs what
    /// the range asks for, not 65,535. Arrival times are exact (the deltas of received packets
    /// before the range are still summed).
    public func packetResults(in range: Range<Int>) -> [PacketResult] {
        let end = min(range.upperBound, Int(packetStatusCount))
        let start = max(0, range.lowerBound)
        guard start < end else { return [] }
        var results: [PacketResult] = []
        results.reserveCapacity(end - start)
        var deltaIndex = 0
        var ticks = Int64(referenceTime) * 256  // 64 ms = 256 ticks of 250 µs
        var index = 0
        func received(_ status: Status) -> Bool { status == .receivedSmallDelta || status == .receivedLargeOrNegativeDelta }
        func visit(_ status: Status) {
            var arrival: Duration?
            if received(status), deltaIndex < recvDeltas.count {
                ticks += Int64(recvDeltas[deltaIndex])
                deltaIndex += 1
                arrival = .microseconds(ticks * 250)
            }
            if index >= start {
                results.append(PacketResult(sequenceNumber: baseSequenceNumber &+ UInt16(truncatingIfNeeded: index),
                                            status: status, arrival: arrival))
            }
            index += 1
        }
        for chunk in chunks where index < end {
            switch chunk {
            case let .runLength(status, length):
                let length = Int(length)
                // Before the range, a run of statuses without deltas is skipped whole.
                if !received(status), index + length <= start {
                    index += length
                    continue
                }
                for _ in 0..<length where index < end { visit(status) }
            case let .oneBitVector(symbols), let .twoBitVector(symbols):
                for status in symbols where index < end { visit(status) }
            }
        }
        return results
    }

    /// Each packet with its status and arrival time relative to the reference
    /// time (`referenceTime` × 64 ms plus the cumulative deltas).
    public var packetResults: [PacketResult] { packetResults(in: 0..<Int(packetStatusCount)) }

    init(reading r: inout RTCPFieldReader) throws(RTCPParseError) {
        senderSSRC = try r.u32("sender SSRC")
        mediaSSRC = try r.u32("media source SSRC")
        baseSequenceNumber = try r.u16("base sequence number")
        packetStatusCount = try r.u16("packet status count")
        let reference = try r.u24("reference time")
        referenceTime = Int32(bitPattern: reference << 8) >> 8
        feedbackPacketCount = try r.u8("feedback packet count")
        // Chunks first, then one delta per received packet. Runs are counted, never expanded:
        // a 36-byte packet may declare 65,535 statuses in eight run-length chunks.
        var chunks: [Chunk] = []
        var runs: [(status: Status, count: Int)] = []
        var covered = 0
        while covered < Int(packetStatusCount) {
            let chunkOffset = r.offset
            let chunk = Chunk(try r.u16("packet chunk"))
            if case .runLength(_, 0) = chunk {
                throw .invalidField(packet: r.packet, field: "packet chunk", reason: "run length of zero", offset: chunkOffset)
            }
            chunks.append(chunk)
            let remaining = Int(packetStatusCount) - covered
            switch chunk {
            case let .runLength(status, length):
                runs.append((status, min(Int(length), remaining)))
                covered += min(Int(length), remaining)
            case let .oneBitVector(symbols), let .twoBitVector(symbols):
                for status in symbols.prefix(remaining) { runs.append((status, 1)) }
                covered += min(symbols.count, remaining)
            }
        }
        var deltas: [Int16] = []
        for run in runs {
            switch run.status {
            case .notReceived: continue
            // Each delta is at least a byte of this packet: a run longer than the packet fails on read.
            case .receivedSmallDelta: for _ in 0..<run.count { deltas.append(Int16(try r.u8("recv delta"))) }
            case .receivedLargeOrNegativeDelta:
                for _ in 0..<run.count { deltas.append(Int16(bitPattern: try r.u16("recv delta"))) }
            case .reserved: throw r.invalid("packet chunk", "reserved status symbol 11 for a reported packet")
            }
        }
        self.chunks = chunks
        self.recvDeltas = deltas
        // The rest is zero padding to a 32-bit boundary.
    }

    func write(to out: inout [UInt8]) {
        let start = out.count
        writeRTCPPacket(to: &out, count: Self.format, packetType: Self.packetType) { out in
            appendBigEndian(senderSSRC, to: &out)
            appendBigEndian(mediaSSRC, to: &out)
            appendBigEndian(baseSequenceNumber, to: &out)
            appendBigEndian(packetStatusCount, to: &out)
            let reference = UInt32(bitPattern: referenceTime) & 0xFF_FFFF
            out.append(UInt8(truncatingIfNeeded: reference >> 16))
            out.append(UInt8(truncatingIfNeeded: reference >> 8))
            out.append(UInt8(truncatingIfNeeded: reference))
            out.append(feedbackPacketCount)
            for chunk in chunks { appendBigEndian(chunk.raw, to: &out) }
            var deltaIterator = recvDeltas.makeIterator()
            for status in statuses {
                switch status {
                case .receivedSmallDelta: out.append(UInt8(truncatingIfNeeded: deltaIterator.next() ?? 0))
                case .receivedLargeOrNegativeDelta: appendBigEndian(UInt16(bitPattern: deltaIterator.next() ?? 0), to: &out)
                case .notReceived, .reserved: continue
                }
            }
            // As libwebrtc does: padding with the P bit set and the count in the last byte.
            let pad = (4 - (out.count - start) % 4) % 4
            if pad > 0 {
                out.append(contentsOf: repeatElement(0, count: pad - 1))
                out.append(UInt8(pad))
                out[start] |= 0x20
            }
        }
    }
}
