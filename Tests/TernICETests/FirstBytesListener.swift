import Foundation
import Synchronization

/// A TCP listener on 127.0.0.1 (or ::1) that accepts one connection and records what the client
/// sends first (up to 512 bytes), without answering: shows what goes on the wire to a server.
final class FirstBytesListener: @unchecked Sendable {
    // `fd` and `port` are set once in init; the bytes are behind a Mutex; the thread ends when
    // `stop()` shuts the listening socket down.
    let port: UInt16
    private let fd: Int32
    private let bytes = Mutex<[UInt8]>([])

    var received: [UInt8] { bytes.withLock { $0 } }

    init(ipv6: Bool = false) throws {
        let fd = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        self.fd = fd
        if ipv6 {
            var addr = sockaddr_in6()
            addr.sin6_family = sa_family_t(AF_INET6)
            addr.sin6_addr = in6addr_loopback
            var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            let bound = withUnsafeMutablePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, length) == 0 && listen(fd, 1) == 0 && getsockname(fd, $0, &length) == 0
                }
            }
            guard bound else { close(fd); throw POSIXError(.EADDRINUSE) }
            port = UInt16(bigEndian: addr.sin6_port)
        } else {
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, length) == 0 && listen(fd, 1) == 0 && getsockname(fd, $0, &length) == 0
                }
            }
            guard bound else { close(fd); throw POSIXError(.EADDRINUSE) }
            port = UInt16(bigEndian: addr.sin_port)
        }
        let thread = Thread { [self] in
            let listening = self.fd
            let client = accept(listening, nil, nil)
            guard client >= 0 else { return }
            defer { close(client) }
            var buffer = [UInt8](repeating: 0, count: 512)
            var total = 0
            while total < buffer.count {
                let n = buffer.withUnsafeMutableBytes { raw -> Int in
                    guard let base = raw.baseAddress else { return 0 }
                    return recv(client, base + total, raw.count - total, 0)
                }
                guard n > 0 else { break }
                total += n
                let snapshot = Array(buffer[0..<total])
                bytes.withLock { $0 = snapshot }
            }
        }
        thread.start()
    }

    func stop() {
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
    }
}
