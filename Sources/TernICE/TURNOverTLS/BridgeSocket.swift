import Foundation

/// Non-blocking TCP sockets for the `turns:` bridge (POSIX; `MSG_NOSIGNAL` on every send so a
/// closed peer gives EPIPE, never SIGPIPE).
enum BridgeSocket {
    /// A listening socket on the loopback address of `ipv6`'s family, ephemeral port.
    static func listenOnLoopback(ipv6: Bool) -> (fd: Int32, port: UInt16)? {
        let fd = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var storage = sockaddr_storage()
        var length: socklen_t
        if ipv6 {
            var addr = sockaddr_in6()
            addr.sin6_family = sa_family_t(AF_INET6)
            addr.sin6_addr = in6addr_loopback
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            withUnsafeBytes(of: addr) { raw in withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: raw) } }
        } else {
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
            withUnsafeBytes(of: addr) { raw in withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: raw) } }
        }
        let ok = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard ok, setNonBlocking(fd) else { close(fd); return nil }
        let port = withUnsafeBytes(of: storage) { raw -> UInt16 in
            // sin_port and sin6_port are both at offset 2, network byte order.
            UInt16(raw[2]) << 8 | UInt16(raw[3])
        }
        return (fd, port)
    }

    /// The next pending connection, non-blocking, or nil (EAGAIN or an error).
    static func accept(_ listener: Int32) -> Int32? {
        let fd = Foundation.accept(listener, nil, nil)
        guard fd >= 0 else { return nil }
        guard setNonBlocking(fd) else { close(fd); return nil }
        return fd
    }

    /// Starts a non-blocking connect to `host` (numeric) `port`: the fd, or -1 and the errno.
    static func connect(host: String, port: UInt16) -> (fd: Int32, error: Int32) {
        var storage = sockaddr_storage()
        let length: socklen_t
        let family: Int32
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, host, &v4) == 1 {
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_port = port.bigEndian
            addr.sin_addr = v4
            family = AF_INET
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
            withUnsafeBytes(of: addr) { raw in withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: raw) } }
        } else if inet_pton(AF_INET6, host, &v6) == 1 {
            var addr = sockaddr_in6()
            addr.sin6_family = sa_family_t(AF_INET6)
            addr.sin6_port = port.bigEndian
            addr.sin6_addr = v6
            family = AF_INET6
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            withUnsafeBytes(of: addr) { raw in withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: raw) } }
        } else {
            return (-1, EINVAL)
        }
        let fd = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return (-1, errno) }
        guard setNonBlocking(fd) else { let code = errno; close(fd); return (-1, code) }
        var nodelay: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &nodelay, socklen_t(MemoryLayout<Int32>.size))
        let started = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Foundation.connect(fd, $0, length) }
        }
        if started != 0, errno != EINPROGRESS {
            let code = errno
            close(fd)
            return (-1, code)
        }
        return (fd, 0)
    }

    /// The result of a finished non-blocking connect (0 when connected).
    static func pendingError(_ fd: Int32) -> Int32 {
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else { return errno }
        return code
    }

    /// One `recv` into `buffer`: bytes read, 0 at end of stream, nil when it would block;
    /// an error other than EAGAIN counts as end of stream (`failure` set).
    static func receive(_ fd: Int32, into buffer: inout [UInt8], failure: inout Int32) -> Int? {
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n >= 0 { return n }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return nil }
        failure = errno
        return 0
    }

    /// One `send` of `bytes` (MSG_NOSIGNAL): bytes written, nil when it would block, -1 on error.
    static func send(_ fd: Int32, _ bytes: [UInt8], failure: inout Int32) -> Int? {
        let n = bytes.withUnsafeBytes { Foundation.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if n >= 0 { return n }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return nil }
        failure = errno
        return -1
    }

    static func describe(_ code: Int32) -> String { String(cString: strerror(code)) + " (errno \(code))" }

    private static func setNonBlocking(_ fd: Int32) -> Bool {
        let flags = fcntl(fd, F_GETFL)
        return flags >= 0 && fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0
    }
}
