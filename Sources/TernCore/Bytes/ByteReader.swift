/// Reads big-endian (network order) integers and byte runs from a buffer,
/// without copying it. Every read is bounds-checked and throws a typed error;
/// nothing here traps on short or hostile input.
///
/// Parsers of network input take a `ByteReader`, read what the wire format
/// says, and turn `ByteReaderError` into their own error with context.
public struct ByteReader: Sendable {
    /// The bytes not yet read.
    public private(set) var remaining: ArraySlice<UInt8>
    private let startIndex: Int

    /// A reader over all of `bytes`.
    public init(_ bytes: [UInt8]) {
        self.init(bytes[...])
    }

    /// A reader over `slice`; offsets are reported relative to its start.
    public init(_ slice: ArraySlice<UInt8>) {
        self.remaining = slice
        self.startIndex = slice.startIndex
    }

    /// Number of bytes left to read.
    @inlinable public var count: Int { remaining.count }

    /// Whether every byte has been read.
    @inlinable public var isEmpty: Bool { remaining.isEmpty }

    /// How many bytes have been read since the start.
    public var offset: Int { remaining.startIndex - startIndex }

    /// Reads one byte.
    public mutating func readUInt8() throws(ByteReaderError) -> UInt8 {
        guard let byte = remaining.first else { throw truncated(needing: 1) }
        remaining = remaining.dropFirst()
        return byte
    }

    /// Reads a big-endian 16-bit integer.
    public mutating func readUInt16() throws(ByteReaderError) -> UInt16 {
        UInt16(truncatingIfNeeded: try readBigEndian(byteCount: 2))
    }

    /// Reads a big-endian 24-bit integer (as used by DTLS handshake lengths and RTCP).
    public mutating func readUInt24() throws(ByteReaderError) -> UInt32 {
        UInt32(truncatingIfNeeded: try readBigEndian(byteCount: 3))
    }

    /// Reads a big-endian 32-bit integer.
    public mutating func readUInt32() throws(ByteReaderError) -> UInt32 {
        UInt32(truncatingIfNeeded: try readBigEndian(byteCount: 4))
    }

    /// Reads a big-endian 48-bit integer (DTLS record sequence numbers).
    public mutating func readUInt48() throws(ByteReaderError) -> UInt64 {
        try readBigEndian(byteCount: 6)
    }

    /// Reads a big-endian 64-bit integer.
    public mutating func readUInt64() throws(ByteReaderError) -> UInt64 {
        try readBigEndian(byteCount: 8)
    }

    /// Reads `count` bytes as a slice of the underlying buffer (no copy).
    public mutating func readBytes(_ count: Int) throws(ByteReaderError) -> ArraySlice<UInt8> {
        guard count >= 0, count <= remaining.count else { throw truncated(needing: count) }
        let end = remaining.startIndex + count
        let bytes = remaining[remaining.startIndex..<end]
        remaining = remaining[end...]
        return bytes
    }

    /// Reads everything that is left.
    public mutating func readRemaining() -> ArraySlice<UInt8> {
        let bytes = remaining
        remaining = remaining[remaining.endIndex...]
        return bytes
    }

    /// Skips `count` bytes.
    public mutating func skip(_ count: Int) throws(ByteReaderError) {
        _ = try readBytes(count)
    }

    /// The next byte, without consuming it.
    public func peekUInt8() throws(ByteReaderError) -> UInt8 {
        guard let byte = remaining.first else { throw truncated(needing: 1) }
        return byte
    }

    /// A reader over the next `count` bytes, which this reader skips.
    /// Used for length-prefixed sub-structures (chunks, extensions, TLVs).
    public mutating func readSubReader(_ count: Int) throws(ByteReaderError) -> ByteReader {
        ByteReader(try readBytes(count))
    }

    private mutating func readBigEndian(byteCount: Int) throws(ByteReaderError) -> UInt64 {
        guard remaining.count >= byteCount else { throw truncated(needing: byteCount) }
        var value: UInt64 = 0
        var index = remaining.startIndex
        let end = index + byteCount
        while index < end {
            value = (value << 8) | UInt64(remaining[index])
            index += 1
        }
        remaining = remaining[end...]
        return value
    }

    private func truncated(needing needed: Int) -> ByteReaderError {
        .truncated(needed: needed, available: remaining.count, offset: offset)
    }
}

/// Why a `ByteReader` could not read.
public enum ByteReaderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The input ended early: `needed` bytes were asked for at `offset`, only `available` were left.
    case truncated(needed: Int, available: Int, offset: Int)

    public var description: String {
        switch self {
        case let .truncated(needed, available, offset):
            "truncated input: needed \(needed) byte(s) at offset \(offset), \(available) left"
        }
    }
}
