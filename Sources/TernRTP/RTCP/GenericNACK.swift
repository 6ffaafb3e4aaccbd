/// Generic NACK, RTPFB (PT=205) FMT=1 (RFC 4585 §6.2.1).
///
///  FCI entries, one or more:
///   0                   1                   2                   3
///   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
///  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///  |            PID                |             BLP               |
///  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///
/// PID is a lost sequence number; bit i of BLP (LSB = 0) reports PID+i+1 lost too.
public struct GenericNACK: Sendable, Equatable {
    /// The RTCP packet type (PT).
    public static let packetType: UInt8 = 205
    /// The feedback message type (FMT) in the count field.
    public static let format: UInt8 = 1

    /// One PID/BLP entry.
    public struct Entry: Sendable, Equatable {
        /// PID: a lost sequence number.
        public var packetID: UInt16
        /// BLP: bit i set means PID+i+1 is lost too.
        public var bitmask: UInt16
        /// Creates a value from its fields.
        public init(packetID: UInt16, bitmask: UInt16) {
            self.packetID = packetID
            self.bitmask = bitmask
        }
        /// The sequence numbers this entry reports lost, in order.
        public var lostSequenceNumbers: [UInt16] {
            var out = [packetID]
            for bit in 0..<16 where bitmask & (1 << bit) != 0 { out.append(packetID &+ UInt16(bit + 1)) }
            return out
        }
    }

    /// SSRC of the packet sender (the reporter).
    public var senderSSRC: UInt32
    /// SSRC of the media source the feedback is about.
    public var mediaSSRC: UInt32
    /// The FCI entries.
    public var entries: [Entry]

    /// Creates a value from its fields.
    public init(senderSSRC: UInt32, mediaSSRC: UInt32, entries: [Entry]) {
        self.senderSSRC = senderSSRC
        self.mediaSSRC = mediaSSRC
        self.entries = entries
    }

    /// Builds the fewest PID/BLP entries covering `lost`, ordered by RTP sequence
    /// order (wrap-aware, relative to the first element); duplicates are merged.
    public init(senderSSRC: UInt32, mediaSSRC: UInt32, lost: [UInt16]) {
        self.senderSSRC = senderSSRC
        self.mediaSSRC = mediaSSRC
        var entries: [Entry] = []
        if let reference = lost.first {
            let ordered = Set(lost).sorted { SequenceNumber.distance(from: reference, to: $0) < SequenceNumber.distance(from: reference, to: $1) }
            var current = Entry(packetID: ordered[0], bitmask: 0)
            for seq in ordered.dropFirst() {
                let gap = seq &- current.packetID
                if gap >= 1, gap <= 16 {
                    current.bitmask |= 1 << (gap - 1)
                } else {
                    entries.append(current)
                    current = Entry(packetID: seq, bitmask: 0)
                }
            }
            entries.append(current)
        }
        self.entries = entries
    }

    /// Every sequence number reported lost.
    public var lostSequenceNumbers: [UInt16] { entries.flatMap(\.lostSequenceNumbers) }

    init(reading r: inout RTCPFieldReader) throws(RTCPParseError) {
        senderSSRC = try r.u32("sender SSRC")
        mediaSSRC = try r.u32("media source SSRC")
        guard r.count % 4 == 0 else { throw r.invalid("FCI", "length \(r.count) is not a multiple of 4") }
        var entries: [Entry] = []
        entries.reserveCapacity(r.count / 4)
        while !r.isEmpty {
            entries.append(Entry(packetID: try r.u16("PID"), bitmask: try r.u16("BLP")))
        }
        self.entries = entries
    }

    func write(to out: inout [UInt8]) {
        writeRTCPPacket(to: &out, count: Self.format, packetType: Self.packetType) { out in
            appendBigEndian(senderSSRC, to: &out)
            appendBigEndian(mediaSSRC, to: &out)
            for entry in entries {
                appendBigEndian(entry.packetID, to: &out)
                appendBigEndian(entry.bitmask, to: &out)
            }
        }
    }
}
