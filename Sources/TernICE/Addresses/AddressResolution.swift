import Foundation

/// Name resolution with the system resolver (`getaddrinfo`).
enum AddressResolution {
    /// The first numeric address for `host` (IPv4 preferred), or nil. Blocks.
    static func numericAddress(_ host: String) -> String? {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &result) == 0, let first = result else { return nil }
        defer { freeaddrinfo(first) }
        var found: [String] = []
        var node: UnsafeMutablePointer<addrinfo>? = first
        while let n = node {
            var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            if let addr = n.pointee.ai_addr,
               getnameinfo(addr, n.pointee.ai_addrlen, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0 {
                let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if n.pointee.ai_family == AF_INET { return text }
                found.append(text)
            }
            node = n.pointee.ai_next
        }
        return found.first
    }

    /// True for an IPv4 or IPv6 literal (no brackets).
    static func isIPLiteral(_ host: String) -> Bool { IPAddressClass(host) != .notAnAddress }
}
