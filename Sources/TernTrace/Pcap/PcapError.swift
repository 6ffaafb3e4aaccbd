/// Why a capture could not be written or read.
public enum PcapError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text is not an IPv4 or IPv6 literal (host names are not resolved).
    case invalidAddress(String)
    /// Source and destination are of different IP families; a packet needs one.
    case addressFamilyMismatch(from: IPAddress, to: IPAddress)
    /// The capture file could not be created or opened.
    case cannotOpen(path: String, reason: String)
    /// Writing to the capture file failed (disk full, file removed, …).
    case writeFailed(path: String, reason: String)
    /// `write` was called after `close()`.
    case closed(path: String)
    /// Reading back: the bytes are not a classic pcap file.
    case malformed(String)

    public var description: String {
        switch self {
        case let .invalidAddress(text):
            "'\(text)' is not an IPv4 or IPv6 address literal (host names are not resolved)"
        case let .addressFamilyMismatch(from, to):
            "cannot write a packet from \(from) to \(to): both ends must be IPv4 or both IPv6"
        case let .cannotOpen(path, reason):
            "cannot open capture file \(path): \(reason)"
        case let .writeFailed(path, reason):
            "writing capture file \(path) failed: \(reason)"
        case let .closed(path):
            "capture file \(path) is already closed"
        case let .malformed(reason):
            "not a valid pcap file: \(reason)"
        }
    }
}
