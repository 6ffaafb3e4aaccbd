import TernCore

/// An RTP data packet (RFC 3550 §5.1). Parsing keeps the payload and the
/// header-extension block as slices of the input buffer: nothing is copied.
public struct RTPPacket: Sendable, Equatable {
    /// Marker bit (M): for video, the last packet of a frame.
    public var marker: Bool
    /// Payload type (PT), 7 bits.
    public var payloadType: UInt8
    /// Sequence number, 16 bits, wrapping.
    public var sequenceNumber: UInt16
    /// RTP timestamp in the media clock rate.
    public var timestamp: UInt32
    /// Synchronisation source.
    public var ssrc: UInt32
    /// Contributing sources (at most 15; `write` leaves out any beyond the 4-bit CC field).
    public var csrcs: [UInt32]
    /// The header extension block (X bit set when present).
    public var headerExtension: RTPHeaderExtension?
    /// The payload, without padding.
    public var payload: ArraySlice<UInt8>
    /// The padding bytes after the payload, the last being their count (empty = no P bit).
    /// Kept as received so a packet re-serialises byte for byte.
    public var padding: ArraySlice<UInt8>

    /// Number of padding bytes including the count byte (0 = no P bit). Setting it
    /// replaces the padding with zeros followed by the count (RFC 3550 §5.1).
    public var paddingSize: UInt8 {
        get { UInt8(truncatingIfNeeded: padding.count) }
        set {
            var bytes = [UInt8](repeating: 0, count: Int(newValue))
            if newValue > 0 { bytes[bytes.count - 1] = newValue }
            padding = bytes[...]
        }
    }

    /// Creates a value from its fields.
    public init(
        marker: Bool = false, payloadType: UInt8, sequenceNumber: UInt16, timestamp: UInt32, ssrc: UInt32,
        csrcs: [UInt32] = [], headerExtension: RTPHeaderExtension? = nil, payload: ArraySlice<UInt8> = [],
        paddingSize: UInt8 = 0
    ) {
        self.marker = marker
        self.payloadType = payloadType
        self.sequenceNumber = sequenceNumber
        self.timestamp = timestamp
        self.ssrc = ssrc
        self.csrcs = csrcs
        self.headerExtension = headerExtension
        self.payload = payload
        self.padding = []
        self.paddingSize = paddingSize
    }

    /// Size of the fixed header, CSRCs and extension block.
    public var headerSize: Int {
        12 + 4 * csrcs.count + (headerExtension.map { 4 + ($0.data.count + 3) / 4 * 4 } ?? 0)
    }

    /// Total size on the wire.
    public var wireSize: Int { headerSize + payload.count + padding.count }

    /// Where the value of header extension element `id` starts in the bytes `write(to:)`
    /// produces, so a sender can fill it in as the packet leaves (a transport-wide sequence
    /// number is given at that moment, not when the packet was built).
    public func serializedOffset(ofExtensionElement id: UInt8) -> Int? {
        guard let headerExtension, let value = headerExtension.value(forID: id) else { return nil }
        return 12 + 4 * csrcs.count + 4 + (value.startIndex - headerExtension.data.startIndex)
    }
}

extension RTPPacket {
    // RFC 3550 §5.1, RTP fixed header:
    //
    //   0                   1                   2                   3
    //   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
    //  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
    //  |V=2|P|X|  CC   |M|     PT      |       sequence number         |
    //  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
    //  |                           timestamp                           |
    //  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
    //  |           synchronization source (SSRC) identifier            |
    //  +=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+
    //  |            contributing source (CSRC) identifiers             |
    //  |                             ....                              |
    //  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
    //
    // RFC 3550 §5.3.1, header extension (X=1):
    //
    //  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
    //  |      defined by profile       |           length              |
    //  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
    //  |                        header extension                       |
    //  |                             ....                              |
    //
    // `length` counts 32-bit words after this 4-byte header. If P=1 the last
    // byte of the packet is the number of padding bytes (including itself).

    /// Parses one RTP packet; the payload and extension block are slices of `bytes`.
    /// - Throws: `RTPParseError` naming the field and offset that were wrong.
    public init(parsing bytes: ArraySlice<UInt8>) throws(RTPParseError) {
        var reader = ByteReader(bytes)
        func read<T>(_ field: String, _ body: (inout ByteReader) throws(ByteReaderError) -> T) throws(RTPParseError) -> T {
            let offset = reader.offset
            do { return try body(&reader) } catch { throw .truncated(field: field, offset: offset, underlying: error) }
        }
        let first = try read("fixed header") { (r: inout ByteReader) throws(ByteReaderError) in try r.readUInt8() }
        guard first >> 6 == 2 else { throw .unsupportedVersion(found: first >> 6, offset: 0) }
        let hasPadding = first & 0x20 != 0
        let hasExtension = first & 0x10 != 0
        let csrcCount = Int(first & 0x0F)
        let second = try read("fixed header") { (r: inout ByteReader) throws(ByteReaderError) in try r.readUInt8() }
        marker = second & 0x80 != 0
        payloadType = second & 0x7F
        sequenceNumber = try read("sequence number") { (r: inout ByteReader) throws(ByteReaderError) in try r.readUInt16() }
        timestamp = try read("timestamp") { (r: inout ByteReader) throws(ByteReaderError) in try r.readUInt32() }
        ssrc = try read("SSRC") { (r: inout ByteReader) throws(ByteReaderError) in try r.readUInt32() }
        var csrcs: [UInt32] = []
        if csrcCount > 0 {
            csrcs.reserveCapacity(csrcCount)
            for _ in 0..<csrcCount {
                csrcs.append(try read("CSRC list") { (r: inout ByteReader) throws(ByteReaderError) in try r.readUInt32() })
            }
        }
        self.csrcs = csrcs
        if hasExtension {
            let profile = try read("extension header") { (r: inout ByteReader) throws(ByteReaderError) in try r.readUInt16() }
            let words = try read("extension header") { (r: inout ByteReader) throws(ByteReaderError) in try r.readUInt16() }
            let data = try read("extension data") { (r: inout ByteReader) throws(ByteReaderError) in try r.readBytes(Int(words) * 4) }
            headerExtension = RTPHeaderExtension(profile: profile, data: data)
        } else {
            headerExtension = nil
        }
        let headerEnd = reader.offset
        var body = reader.readRemaining()
        if hasPadding {
            let count = Int(body.last ?? 0)
            guard count > 0, count <= body.count else {
                throw .invalidPadding(count: count, available: body.count, offset: headerEnd)
            }
            padding = body.suffix(count)
            body = body.dropLast(count)
        } else {
            padding = []
        }
        payload = body
    }

    /// Parses one RTP packet from a whole buffer.
    public init(parsing bytes: [UInt8]) throws(RTPParseError) {
        try self.init(parsing: bytes[...])
    }

    /// Appends the wire form to `out`. Padding is written as stored.
    public func write(to out: inout [UInt8]) {
        let csrcCount = min(csrcs.count, 15)
        out.append(0x80 | (padding.isEmpty ? 0 : 0x20) | (headerExtension != nil ? 0x10 : 0) | UInt8(csrcCount))
        out.append((marker ? 0x80 : 0) | (payloadType & 0x7F))
        appendBigEndian(sequenceNumber, to: &out)
        appendBigEndian(timestamp, to: &out)
        appendBigEndian(ssrc, to: &out)
        for csrc in csrcs.prefix(csrcCount) { appendBigEndian(csrc, to: &out) }
        if let ext = headerExtension {
            let words = (ext.data.count + 3) / 4
            appendBigEndian(ext.profile, to: &out)
            appendBigEndian(UInt16(truncatingIfNeeded: words), to: &out)
            out.append(contentsOf: ext.data)
            for _ in ext.data.count..<(words * 4) { out.append(0) }
        }
        out.append(contentsOf: payload)
        out.append(contentsOf: padding)
    }

    /// The wire form as a new buffer.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(wireSize)
        write(to: &out)
        return out
    }
}
