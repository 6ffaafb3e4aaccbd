/// RTCP Source Description, PT=202 (RFC 3550 §6.5).
///
///  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///  |V=2|P|    SC   |  PT=SDES=202  |             length            |
///  +=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+
///  |                          SSRC/CSRC_1                          |
///  |                           SDES items: type(8) length(8) text  |
///  |                  null octet(s) to a 32-bit boundary           |
///  +=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+
///  |                          SSRC/CSRC_2 ...                      |
public struct SourceDescription: Sendable, Equatable {
    /// The RTCP packet type (PT).
    public static let packetType: UInt8 = 202

    /// One SDES item (RFC 3550 §6.5.1–§6.5.8): CNAME=1, NAME=2, EMAIL=3, PHONE=4, LOC=5, TOOL=6, NOTE=7, PRIV=8.
    public struct Item: Sendable, Equatable {
        /// The item type (1 = CNAME).
        public var type: UInt8
        /// The item text (UTF-8).
        public var value: ArraySlice<UInt8>
        /// Creates a value from its fields.
        public init(type: UInt8, value: ArraySlice<UInt8>) {
            self.type = type
            self.value = value
        }
        /// A CNAME item (type 1).
        public static func cname(_ text: String) -> Item { Item(type: 1, value: Array(text.utf8)[...]) }
    }

    /// The items describing one source.
    public struct Chunk: Sendable, Equatable {
        /// The SSRC or CSRC the chunk describes.
        public var source: UInt32
        /// The SDES items.
        public var items: [Item]
        /// Creates a value from its fields.
        public init(source: UInt32, items: [Item]) {
            self.source = source
            self.items = items
        }
        /// The CNAME text, if present.
        public var cname: String? {
            items.first { $0.type == 1 }.map { String(decoding: $0.value, as: UTF8.self) }
        }
    }

    /// The chunks, one per source.
    public var chunks: [Chunk]

    /// Creates a value from its fields.
    public init(chunks: [Chunk]) { self.chunks = chunks }

    init(reading r: inout RTCPFieldReader, count: UInt8) throws(RTCPParseError) {
        var chunks: [Chunk] = []
        for _ in 0..<count {
            let chunkStart = r.reader.offset
            let source = try r.u32("chunk SSRC/CSRC")
            var items: [Item] = []
            while true {
                let type = try r.u8("item type")
                if type == 0 { break }  // END item (§6.5): the rest up to the 32-bit boundary is padding.
                let length = try r.u8("item length")
                items.append(Item(type: type, value: try r.bytes(Int(length), "item text")))
            }
            let used = r.reader.offset - chunkStart
            let pad = (4 - used % 4) % 4
            _ = try r.bytes(pad, "chunk padding")
            chunks.append(Chunk(source: source, items: items))
        }
        self.chunks = chunks
    }

    func write(to out: inout [UInt8]) {
        writeRTCPPacket(to: &out, count: UInt8(min(chunks.count, 31)), packetType: Self.packetType) { out in
            for chunk in chunks.prefix(31) {
                let start = out.count
                appendBigEndian(chunk.source, to: &out)
                for item in chunk.items {
                    out.append(item.type)
                    out.append(UInt8(min(item.value.count, 255)))
                    out.append(contentsOf: item.value.prefix(255))
                }
                // END octet, then null octets to the next 32-bit boundary.
                out.append(0)
                while (out.count - start) % 4 != 0 { out.append(0) }
            }
        }
    }
}
