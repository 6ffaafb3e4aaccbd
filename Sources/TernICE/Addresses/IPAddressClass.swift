import Foundation

/// What kind of address an IP literal is, for refusing addresses no remote peer can have
/// (RFC 6890 special-purpose registries: 127/8 and ::1 loopback, 224/4 and ff00::/8 multicast,
/// 0.0.0.0 and :: unspecified, 255.255.255.255 limited broadcast).
enum IPAddressClass: Equatable {
    case loopback, multicast, unspecified, broadcast
    /// Any other address, including private and link-local ones.
    case unicast
    /// Not an IP literal.
    case notAnAddress

    init(_ text: String) {
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            let a = UInt32(bigEndian: v4.s_addr)
            switch a {
            case 0: self = .unspecified
            case 0xFFFF_FFFF: self = .broadcast
            case _ where a >> 24 == 127: self = .loopback
            case _ where a >> 28 == 0xE: self = .multicast
            default: self = .unicast
            }
        } else if inet_pton(AF_INET6, text, &v6) == 1 {
            let bytes = withUnsafeBytes(of: v6) { Array($0) }
            if bytes.allSatisfy({ $0 == 0 }) {
                self = .unspecified
            } else if bytes.dropLast().allSatisfy({ $0 == 0 }) && bytes.last == 1 {
                self = .loopback
            } else if bytes[0] == 0xFF {
                self = .multicast
            } else if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
                // An IPv4-mapped address (::ffff:a.b.c.d) is what its IPv4 address is.
                self = IPAddressClass(bytes[12..<16].map(String.init).joined(separator: "."))
            } else {
                self = .unicast
            }
        } else {
            self = .notAnAddress
        }
    }
}
