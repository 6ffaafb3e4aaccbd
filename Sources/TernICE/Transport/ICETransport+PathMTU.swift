import TernSDP
#if canImport(Glibc)
import Glibc
#endif

// The local route's MTU towards the selected pair's peer, for packetization-layer PMTU
// discovery above (RFC 8899 §5.1.2: MAX_PLPMTU from the local interface). Read once per
// selected pair, on the loop thread (which is in the transport's network namespace).
extension ICETransport {
    /// The largest UDP payload the selected pair's first hop takes without fragmenting: the
    /// route MTU to the remote address minus IP and UDP headers. nil before a pair is selected,
    /// for relayed and TCP pairs (the first hop is the TURN server, or a stream), or when the
    /// kernel does not say.
    public var selectedPathMaximumDatagramSize: Int? { state.withLock { $0.selectedPathMaximumDatagram } }

    /// Reads the route MTU for a direct UDP pair and stores the datagram size it allows.
    func measureSelectedPath(_ pair: ICECandidatePair) {
        let size: Int? = if pair.local.candidateType != .relay, pair.local.transportProtocol == .udp, pair.remote.transportProtocol == .udp {
            Self.routeMTU(to: pair.remote.address).map { mtu in
                mtu - (pair.remote.address.contains(":") ? 40 : 20) - 8
            }
        } else {
            nil
        }
        state.withLock { $0.selectedPathMaximumDatagram = size }
    }

    /// IP_MTU / IPV6_MTU of a UDP socket connected to `address` (connecting a UDP socket sends
    /// nothing; the kernel looks up the route and its MTU, or a smaller PMTU it learned).
    static func routeMTU(to address: String) -> Int? {
        let isIPv6 = address.contains(":")
        let fd = socket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { Glibc.close(fd) }
        let connected: Bool
        if isIPv6 {
            var target = sockaddr_in6()
            target.sin6_family = sa_family_t(AF_INET6)
            target.sin6_port = UInt16(9).bigEndian
            guard inet_pton(AF_INET6, address.split(separator: "%").first.map(String.init) ?? address, &target.sin6_addr) == 1 else { return nil }
            connected = withUnsafePointer(to: &target) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) == 0 }
            }
        } else {
            var target = sockaddr_in()
            target.sin_family = sa_family_t(AF_INET)
            target.sin_port = UInt16(9).bigEndian
            guard inet_pton(AF_INET, address, &target.sin_addr) == 1 else { return nil }
            connected = withUnsafePointer(to: &target) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
        }
        guard connected else { return nil }
        var mtu: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        let ok = isIPv6 ? getsockopt(fd, SOL_IPV6, IPV6_MTU, &mtu, &length) : getsockopt(fd, SOL_IP, IP_MTU, &mtu, &length)
        return ok == 0 && mtu > 0 ? Int(mtu) : nil
    }
}
