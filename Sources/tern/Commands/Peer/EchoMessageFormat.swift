import TernSCTP

/// The numbered messages of an echo run: the header `tern-echo 17`, then (with a size) a filler
/// that depends on the number, up to that many bytes — sent as text or binary. The echo must come
/// back byte for byte; the header says which message it is.
struct EchoMessageFormat: Sendable {
    static let prefix = "tern-echo "

    /// Total bytes per message; the header alone when nil or smaller than the header.
    var size: Int?
    /// Binary messages (PPID 53) instead of text (PPID 51).
    var binary = false
    /// Sizes taken in turn by sequence number (`sizes[n % sizes.count]`); overrides `size` when not empty.
    var sizes: [Int] = []
    /// Text for even numbers, binary for odd ones (overrides `binary`).
    var alternate = false
    /// One message with its own size (e.g. the peer's max-message-size): (sequence, size).
    var special: (sequence: Int, size: Int)?

    /// The size asked for message `sequence` (the header may make it longer).
    func size(of sequence: Int) -> Int? {
        if let special, special.sequence == sequence { return special.size }
        return sizes.isEmpty ? size : sizes[sequence % sizes.count]
    }

    func isBinary(_ sequence: Int) -> Bool { alternate ? sequence % 2 == 1 : binary }

    func bytes(_ sequence: Int) -> [UInt8] {
        var bytes = Array((Self.prefix + String(sequence)).utf8)
        guard let size = size(of: sequence), size > bytes.count else { return bytes }
        bytes.reserveCapacity(size)
        bytes.append(UInt8(ascii: " "))
        var index = 0
        while bytes.count < size {
            bytes.append(UInt8(ascii: "a") + UInt8((sequence + index) % 26))
            index += 1
        }
        return bytes
    }

    func message(_ sequence: Int) -> DataChannelMessage {
        isBinary(sequence) ? .binary(bytes(sequence)) : .string(String(decoding: bytes(sequence), as: UTF8.self))
    }

    /// A short description of the sizes and kinds, for the log.
    var text: String {
        let kind = alternate ? "text and binary (alternating)" : binary ? "binary" : "text"
        let sizeText = sizes.isEmpty ? "\(size ?? 0)+ bytes" : "of sizes \(sizes.map(String.init).joined(separator: ","))"
        return "\(kind) messages \(sizeText)" + (special.map { ", #\($0.sequence) of \($0.size) bytes" } ?? "")
    }

    /// The number in a message's header; nil when it is not an echo-run message.
    func sequence(of message: DataChannelMessage) -> Int? {
        let bytes: [UInt8] = switch message {
        case let .string(text): Array(text.utf8.prefix(Self.prefix.utf8.count + 10))
        case let .binary(bytes): Array(bytes.prefix(Self.prefix.utf8.count + 10))
        }
        guard bytes.starts(with: Self.prefix.utf8) else { return nil }
        let digits = bytes.dropFirst(Self.prefix.utf8.count).prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        guard !digits.isEmpty, digits.count <= 9 else { return nil }
        return Int(String(decoding: digits, as: UTF8.self))
    }
}
