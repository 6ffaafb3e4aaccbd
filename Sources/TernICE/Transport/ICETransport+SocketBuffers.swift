internal import CNice
#if canImport(Glibc)
import Glibc
#endif

/// Socket buffers of the selected pair (see `ICEConfiguration.socketBufferSize`).
extension ICETransport {
    /// Enlarges the buffers of the socket the selected pair sends and receives on. Runs on the
    /// loop thread, from the selected-pair callback; libnice owns the socket, we only set options.
    func enlargeSelectedSocketBuffers() {
        guard let size = configuration.socketBufferSize, size > 0,
              let socket = nice_agent_get_selected_socket(agent.pointer, streamID, guint(Self.componentID)) else { return }
        defer { g_object_unref(UnsafeMutableRawPointer(socket)) }
        let fd = g_socket_get_fd(socket)
        guard fd >= 0 else { return }
        let receive = Self.setBuffer(fd, force: SO_RCVBUFFORCE, plain: SO_RCVBUF, bytes: size)
        let send = Self.setBuffer(fd, force: SO_SNDBUFFORCE, plain: SO_SNDBUF, bytes: size)
        state.withLock { $0.selectedSocketReceiveBuffer = receive }
        let probing = Self.setDontFragment(fd)
        logger.debug("selected socket buffers: receive \(receive) B, send \(send) B (asked \(size) B); DF \(probing)")
    }

    /// Sets DF on what the socket sends, without the kernel's path-MTU cache getting in the way
    /// (IP_PMTUDISC_PROBE): a datagram larger than the interface's MTU fails to send instead of
    /// being fragmented, and a router on a smaller path drops it. That is what packetization-layer
    /// PMTU discovery above needs (RFC 8899 §3 requirement 6): a probe must either arrive whole
    /// or not at all. Packets at or under the 1,200-byte base size are unaffected on any real path.
    private static func setDontFragment(_ fd: Int32) -> Bool {
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let family = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) == 0 ? Int32($0.pointee.sa_family) : -1 }
        }
        var probe = Int32(IP_PMTUDISC_PROBE)
        let size = socklen_t(MemoryLayout<Int32>.size)
        switch family {
        case AF_INET: return setsockopt(fd, SOL_IP, IP_MTU_DISCOVER, &probe, size) == 0
        case AF_INET6: return setsockopt(fd, SOL_IPV6, IPV6_MTU_DISCOVER, &probe, size) == 0
        default: return false
        }
    }

    /// What Linux charges a receive buffer for one datagram of up to ~1.7 KB (its `truesize`:
    /// a 2 KiB data area plus the socket-buffer header), whatever the payload: a 2 MiB buffer
    /// holds about 910 datagrams, whether they carry 1,200 or 1,500 bytes.
    static let kernelBytesPerDatagram = 2_304

    /// How many MTU-sized datagrams the selected socket can queue before the kernel drops
    /// (nil before a pair is selected, or when the buffer could not be read). A sender that
    /// keeps more than this in flight towards us loses the excess whenever we fall behind, so
    /// the transport above caps its receive window to it (see `TransportCore`).
    public var selectedSocketDatagramCapacity: Int? {
        state.withLock { $0.selectedSocketReceiveBuffer }.map { $0 / Self.kernelBytesPerDatagram }
    }

    /// Sets one buffer and returns the size the kernel reports afterwards (it doubles what it
    /// is given, for bookkeeping).
    private static func setBuffer(_ fd: Int32, force: Int32, plain: Int32, bytes: Int) -> Int {
        var value = Int32(clamping: bytes)
        let length = socklen_t(MemoryLayout<Int32>.size)
        if setsockopt(fd, SOL_SOCKET, force, &value, length) != 0 {
            _ = setsockopt(fd, SOL_SOCKET, plain, &value, length)
        }
        var actual: Int32 = 0
        var actualLength = length
        _ = getsockopt(fd, SOL_SOCKET, plain, &actual, &actualLength)
        return Int(actual)
    }
}
