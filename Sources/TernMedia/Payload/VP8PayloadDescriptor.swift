public import TernCore

/// The VP8 payload descriptor that starts every VP8 RTP payload (RFC 7741 §4.2).
///
/// ```
///        0 1 2 3 4 5 6 7
///       +-+-+-+-+-+-+-+-+
///       |X|R|N|S|R| PID | (REQUIRED)
///       +-+-+-+-+-+-+-+-+
///  X:   |I|L|T|K| RSV   | (OPTIONAL)
///       +-+-+-+-+-+-+-+-+
///  I:   |M| PictureID   | (OPTIONAL)
///       +-+-+-+-+-+-+-+-+
///       |   PictureID   | (present when M = 1: 15-bit PictureID)
///       +-+-+-+-+-+-+-+-+
///  L:   |   TL0PICIDX   | (OPTIONAL)
///       +-+-+-+-+-+-+-+-+
///  T/K: |TID|Y| KEYIDX  | (OPTIONAL)
///       +-+-+-+-+-+-+-+-+
/// ```
/// The X byte is present when any of I, L, T, K is set. R and RSV bits are
/// written as zero and ignored on receipt (§4.2).
public struct VP8PayloadDescriptor: Sendable, Hashable {
    /// A PictureID with the width it is written in (§4.2: M = 0 → 7 bits, M = 1 → 15 bits).
    public enum PictureID: Sendable, Hashable {
        /// A 7-bit PictureID (0…127).
        case short(UInt8)
        /// A 15-bit PictureID (0…32767).
        case long(UInt16)

        /// The numeric value.
        public var value: UInt16 {
            switch self {
            case let .short(id): UInt16(id & 0x7F)
            case let .long(id): id & 0x7FFF
            }
        }
    }

    /// N: non-reference frame; the frame can be discarded without affecting others.
    public var nonReference: Bool
    /// S: this payload starts a VP8 partition.
    public var startOfPartition: Bool
    /// PID: partition index (0…7).
    public var partitionIndex: UInt8
    /// I: PictureID, if present.
    public var pictureID: PictureID?
    /// L: TL0PICIDX, the running index of temporal base layer frames, if present.
    public var tl0PictureIndex: UInt8?
    /// T: temporal layer index TID (0…3), if present.
    public var temporalLayerIndex: UInt8?
    /// Y: layer sync bit; meaningful only when T is present.
    public var layerSync: Bool
    /// K: temporal key frame index KEYIDX (0…31), if present.
    public var keyIndex: UInt8?

    /// A descriptor; by default the start of partition 0 with no extensions.
    public init(nonReference: Bool = false, startOfPartition: Bool = true, partitionIndex: UInt8 = 0,
                pictureID: PictureID? = nil, tl0PictureIndex: UInt8? = nil, temporalLayerIndex: UInt8? = nil,
                layerSync: Bool = false, keyIndex: UInt8? = nil) {
        self.nonReference = nonReference
        self.startOfPartition = startOfPartition
        self.partitionIndex = partitionIndex
        self.pictureID = pictureID
        self.tl0PictureIndex = tl0PictureIndex
        self.temporalLayerIndex = temporalLayerIndex
        self.layerSync = layerSync
        self.keyIndex = keyIndex
    }

    /// Whether this payload begins a frame: S = 1 and PID = 0 (§4.2, §4.5).
    public var startsFrame: Bool { startOfPartition && partitionIndex == 0 }

    /// Number of bytes `serialize` writes.
    public var encodedLength: Int {
        var length = 1
        guard hasExtension else { return length }
        length += 1
        switch pictureID {
        case .short: length += 1
        case .long: length += 2
        case nil: break
        }
        if tl0PictureIndex != nil { length += 1 }
        if temporalLayerIndex != nil || keyIndex != nil { length += 1 }
        return length
    }

    private var hasExtension: Bool {
        pictureID != nil || tl0PictureIndex != nil || temporalLayerIndex != nil || keyIndex != nil
    }

    /// Appends the descriptor's bytes to `writer`.
    public func serialize(into writer: inout ByteWriter) {
        var first = partitionIndex & 0x07
        if hasExtension { first |= 0x80 }
        if nonReference { first |= 0x20 }
        if startOfPartition { first |= 0x10 }
        writer.write(first)
        guard hasExtension else { return }
        var x: UInt8 = 0
        if pictureID != nil { x |= 0x80 }
        if tl0PictureIndex != nil { x |= 0x40 }
        if temporalLayerIndex != nil { x |= 0x20 }
        if keyIndex != nil { x |= 0x10 }
        writer.write(x)
        switch pictureID {
        case let .short(id): writer.write(id & 0x7F)
        case let .long(id): writer.write(0x8000 | (id & 0x7FFF))
        case nil: break
        }
        if let tl0PictureIndex { writer.write(tl0PictureIndex) }
        if temporalLayerIndex != nil || keyIndex != nil {
            var tk = ((temporalLayerIndex ?? 0) & 0x03) << 6
            if layerSync { tk |= 0x20 }
            tk |= (keyIndex ?? 0) & 0x1F
            writer.write(tk)
        }
    }

    /// The descriptor's bytes.
    public func serialized() -> [UInt8] {
        var writer = ByteWriter()
        serialize(into: &writer)
        return writer.bytes
    }

    /// Parses the descriptor at the start of `payload`, returning it and the
    /// offset at which the VP8 payload (frame data) begins. Bounds-checked: a
    /// short or empty payload throws, never traps.
    public static func parse(_ payload: ArraySlice<UInt8>) throws(VP8PayloadError) -> (VP8PayloadDescriptor, headerLength: Int) {
        var reader = ByteReader(payload)
        do {
            let first = try reader.readUInt8()
            var descriptor = VP8PayloadDescriptor(nonReference: first & 0x20 != 0,
                                                  startOfPartition: first & 0x10 != 0,
                                                  partitionIndex: first & 0x07)
            if first & 0x80 != 0 {
                let x = try reader.readUInt8()
                if x & 0x80 != 0 {
                    let high = try reader.readUInt8()
                    if high & 0x80 != 0 {
                        let low = try reader.readUInt8()
                        descriptor.pictureID = .long((UInt16(high & 0x7F) << 8) | UInt16(low))
                    } else {
                        descriptor.pictureID = .short(high)
                    }
                }
                if x & 0x40 != 0 { descriptor.tl0PictureIndex = try reader.readUInt8() }
                let hasT = x & 0x20 != 0, hasK = x & 0x10 != 0
                if hasT || hasK {
                    let tk = try reader.readUInt8()
                    if hasT {
                        descriptor.temporalLayerIndex = tk >> 6
                        descriptor.layerSync = tk & 0x20 != 0
                    }
                    if hasK { descriptor.keyIndex = tk & 0x1F }
                }
            }
            return (descriptor, reader.offset)
        } catch {
            throw .truncatedDescriptor(error)
        }
    }

    /// Parses a whole payload array; see `parse(_:)` for slices.
    public static func parse(_ payload: [UInt8]) throws(VP8PayloadError) -> (VP8PayloadDescriptor, headerLength: Int) {
        try parse(payload[...])
    }
}
