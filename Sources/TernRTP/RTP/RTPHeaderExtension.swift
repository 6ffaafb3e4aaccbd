import TernCore

/// The header extension block of an RTP packet (RFC 3550 §5.3.1), kept as the
/// raw bytes of the packet so that parsing copies nothing and writing
/// reproduces the input byte for byte.
///
/// With the RFC 8285 profiles (`0xBEDE` one-byte, `0x100X` two-byte) the block
/// holds a list of elements, read with `elements()` and built with
/// `init(elements:)`.
public struct RTPHeaderExtension: Sendable, Equatable {
    /// The 16-bit "defined by profile" field.
    public var profile: UInt16
    /// The extension data (a multiple of 4 bytes), without the 4-byte profile/length header.
    public var data: ArraySlice<UInt8>

    /// RFC 8285 §4.2: the one-byte header profile value.
    public static let oneByteProfile: UInt16 = 0xBEDE
    /// RFC 8285 §4.3: the two-byte header profile value (the low 4 "appbits" are free).
    public static let twoByteProfile: UInt16 = 0x1000

    /// A raw block; `data.count` should be a multiple of 4.
    public init(profile: UInt16, data: ArraySlice<UInt8>) {
        self.profile = profile
        self.data = data
    }

    /// Whether this block uses the RFC 8285 one-byte element format.
    public var isOneByte: Bool { profile == Self.oneByteProfile }
    /// Whether this block uses the RFC 8285 two-byte element format.
    public var isTwoByte: Bool { profile & 0xFFF0 == Self.twoByteProfile }

    /// Encodes `elements` in the one-byte format when every id is 1...14 and every
    /// value is 1...16 bytes, otherwise in the two-byte format (RFC 8285 §4.1),
    /// zero-padded to a 32-bit boundary. Values longer than 255 bytes cannot be
    /// encoded and are cut to 255; elements with id 0 are left out.
    public init(elements allElements: [RTPHeaderExtensionElement]) {
        // Id 0 means padding in both formats (RFC 8285 §4.2, §4.3): such an element cannot be sent.
        let elements = allElements.filter { $0.id != 0 }
        let oneByte = elements.allSatisfy { (1...14).contains($0.id) && (1...16).contains($0.value.count) }
        var out: [UInt8] = []
        out.reserveCapacity(elements.reduce(0) { $0 + $1.value.count + 2 } + 3)
        for element in elements {
            if oneByte {
                out.append(element.id << 4 | UInt8(element.value.count - 1))
            } else {
                out.append(element.id)
                out.append(UInt8(truncatingIfNeeded: min(element.value.count, 255)))
            }
            out.append(contentsOf: element.value.prefix(oneByte ? 16 : 255))
        }
        while out.count % 4 != 0 { out.append(0) }
        self.init(profile: oneByte ? Self.oneByteProfile : Self.twoByteProfile, data: out[...])
    }

    /// The RFC 8285 elements of this block, in order; padding bytes are skipped.
    /// Values are slices of the packet (no copy).
    /// - Throws: `RTPParseError.invalidExtensionElement` when an element runs past
    ///   the block, or when the profile is neither one-byte nor two-byte.
    public func elements() throws(RTPParseError) -> [RTPHeaderExtensionElement] {
        var result: [RTPHeaderExtensionElement] = []
        try forEachElement { result.append($0) }
        return result
    }

    /// The value of the element with `id`, if present (first match).
    public func value(forID id: UInt8) -> ArraySlice<UInt8>? {
        var found: ArraySlice<UInt8>?
        try? forEachElement { element in
            if found == nil, element.id == id { found = element.value }
        }
        return found
    }

    /// Calls `body` for each element without allocating. Offsets in errors are
    /// from the start of the extension data.
    public func forEachElement(_ body: (RTPHeaderExtensionElement) -> Void) throws(RTPParseError) {
        guard isOneByte || isTwoByte else {
            throw .invalidExtensionElement(reason: "profile 0x\(String(profile, radix: 16)) is not an RFC 8285 element format", offset: 0)
        }
        let oneByte = isOneByte
        var reader = ByteReader(data)
        // The element being read, for the error message.
        var id: UInt8 = 0
        var length = 0
        var elementOffset = 0
        do {
            while !reader.isEmpty {
                elementOffset = reader.offset
                let first = try reader.readUInt8()
                // A zero byte is padding in both formats.
                if first == 0 { continue }
                if oneByte {
                    // RFC 8285 §4.2: ID (4 bits) | L (4 bits), value of L+1 bytes; ID 15 stops parsing.
                    id = first >> 4
                    if id == 15 { return }
                    length = Int(first & 0x0F) + 1
                } else {
                    // RFC 8285 §4.3: ID (8 bits) | length (8 bits), value of `length` bytes.
                    id = first
                    length = -1  // until the length byte is read
                    length = Int(try reader.readUInt8())
                }
                body(RTPHeaderExtensionElement(id: id, value: try reader.readBytes(length)))
            }
        } catch {
            let reason = length < 0
                ? "two-byte element id \(id) has no length byte"
                : "\(oneByte ? "one" : "two")-byte element id \(id) of \(length) byte(s) runs past the extension block"
            throw .invalidExtensionElement(reason: reason, offset: elementOffset)
        }
    }
}
