/// An IP address as its network-order bytes: 4 for IPv4, 16 for IPv6.
///
/// Parsed from text without any system resolver: dotted-quad IPv4 (RFC 791) and
/// the RFC 4291 §2.2 text forms of IPv6 (`::` compression, embedded IPv4 tail).
public enum IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// An IPv4 address (exactly 4 bytes, network order).
    case v4(UInt8, UInt8, UInt8, UInt8)
    /// An IPv6 address (16 bytes, network order).
    case v6([UInt8])

    /// Parses `text` as IPv4 dotted-quad or IPv6; `nil` when it is neither.
    /// A zone suffix (`fe80::1%eth0`) is accepted and dropped.
    public init?(_ text: String) {
        if let v4 = IPAddress.parseIPv4(Substring(text)) {
            self = .v4(v4[0], v4[1], v4[2], v4[3])
        } else if let v6 = IPAddress.parseIPv6(text) {
            self = .v6(v6)
        } else {
            return nil
        }
    }

    /// The address bytes in network order (4 or 16 of them).
    public var bytes: [UInt8] {
        switch self {
        case let .v4(a, b, c, d): [a, b, c, d]
        case let .v6(bytes): bytes
        }
    }

    /// True for IPv4.
    public var isIPv4: Bool {
        if case .v4 = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case let .v4(a, b, c, d):
            return "\(a).\(b).\(c).\(d)"
        case let .v6(bytes):
            return IPAddress.canonicalIPv6(bytes)
        }
    }

    /// RFC 5952 §4 text: lowercase hex, no leading zeros, the longest run of two or
    /// more zero groups (the first if tied) replaced by `::`.
    static func canonicalIPv6(_ bytes: [UInt8]) -> String {
        let groups = stride(from: 0, to: bytes.count - 1, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
        var best = (start: -1, length: 0), run = (start: -1, length: 0)
        for (index, group) in groups.enumerated() {
            if group == 0 {
                run = run.start < 0 ? (index, 1) : (run.start, run.length + 1)
                if run.length > best.length { best = run }
            } else {
                run = (-1, 0)
            }
        }
        let text = groups.map { String($0, radix: 16) }
        guard best.length >= 2 else { return text.joined(separator: ":") }
        let head = text[..<best.start].joined(separator: ":")
        let tail = text[(best.start + best.length)...].joined(separator: ":")
        return head + "::" + tail
    }

    /// Four decimal octets 0...255, no leading sign or empty parts.
    static func parseIPv4(_ text: Substring) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var out: [UInt8] = []
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy(\.isASCII), part.allSatisfy(\.isNumber),
                  let value = UInt8(part) else { return nil }
            out.append(value)
        }
        return out
    }

    /// RFC 4291 §2.2: eight hex groups, at most one `::`, optional dotted IPv4 tail.
    static func parseIPv6(_ raw: String) -> [UInt8]? {
        let text = raw.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        guard let head = groups(Substring(halves[0])) else { return nil }
        if halves.count == 1 {
            return head.count == 16 ? head : nil
        }
        guard let tail = groups(Substring(halves[1])), head.count + tail.count <= 14 else { return nil }
        return head + [UInt8](repeating: 0, count: 16 - head.count - tail.count) + tail
    }

    /// Colon-separated hex groups (the last may be dotted IPv4) as bytes; empty text is no groups.
    private static func groups(_ text: Substring) -> [UInt8]? {
        if text.isEmpty { return [] }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        var out: [UInt8] = []
        for (index, part) in parts.enumerated() {
            if index == parts.count - 1, part.contains(".") {
                guard let v4 = parseIPv4(part) else { return nil }
                out += v4
            } else {
                guard (1...4).contains(part.count), let group = UInt16(part, radix: 16) else { return nil }
                out += [UInt8(truncatingIfNeeded: group >> 8), UInt8(truncatingIfNeeded: group)]
            }
        }
        return out
    }
}
