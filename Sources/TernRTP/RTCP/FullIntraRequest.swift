/// Full Intra Request, PSFB (PT=206) FMT=4 (RFC 5104 §4.3.1).
///
///  FCI entries: | SSRC (32) | Seq nr. (8) | Reserved (24) |
public struct FullIntraRequest: Sendable, Equatable {
    /// The RTCP packet type (PT).
    public static let packetType: UInt8 = 206
    /// The feedback message type (FMT) in the count field.
    public static let format: UInt8 = 4

    /// One request: the media sender asked to send a decoder refresh point.
    public struct Entry: Sendable, Equatable {
        /// SSRC of the media sender asked for a decoder refresh point.
        public var ssrc: UInt32
        /// Command sequence number, incremented per new request (RFC 5104 §4.3.1.1).
        public var sequenceNumber: UInt8
        /// Creates a value from its fields.
        public init(ssrc: UInt32, sequenceNumber: UInt8) {
            self.ssrc = ssrc
            self.sequenceNumber = sequenceNumber
        }
    }

    /// SSRC of the packet sender (the reporter).
    public var senderSSRC: UInt32
    /// Unused in FIR and set to 0 (RFC 5104 §4.3.1.2), kept as received.
    public var mediaSSRC: UInt32
    /// The FCI entries.
    public var entries: [Entry]

    /// Creates a value from its fields.
    public init(senderSSRC: UInt32, mediaSSRC: UInt32 = 0, entries: [Entry]) {
        self.senderSSRC = senderSSRC
        self.mediaSSRC = mediaSSRC
        self.entries = entries
    }

    init(reading r: inout RTCPFieldReader) throws(RTCPParseError) {
        senderSSRC = try r.u32("sender SSRC")
        mediaSSRC = try r.u32("media source SSRC")
        guard r.count % 8 == 0 else { throw r.invalid("FCI", "length \(r.count) is not a multiple of 8") }
        var entries: [Entry] = []
        while !r.isEmpty {
            let ssrc = try r.u32("FIR SSRC")
            let seq = try r.u8("FIR seq nr")
            _ = try r.u24("FIR reserved")
            entries.append(Entry(ssrc: ssrc, sequenceNumber: seq))
        }
        self.entries = entries
    }

    func write(to out: inout [UInt8]) {
        writeRTCPPacket(to: &out, count: Self.format, packetType: Self.packetType) { out in
            appendBigEndian(senderSSRC, to: &out)
            appendBigEndian(mediaSSRC, to: &out)
            for entry in entries {
                appendBigEndian(entry.ssrc, to: &out)
                out.append(entry.sequenceNumber)
                out.append(0)
                out.append(0)
                out.append(0)
            }
        }
    }
}
