import Foundation

/// A one-shot mDNS query over UDP (RFC 6762 §5.1): send A/AAAA questions to
/// 224.0.0.251:5353 from an ephemeral port and wait for a unicast answer. Blocking;
/// `IceTransport` runs it on a background queue.
enum MDNSQuery {
    /// The mDNS group and port (RFC 6762 §3); tests point it at a fake responder.
    struct Destination: Sendable {
        var address = "224.0.0.251"
        var port: UInt16 = 5353
    }

    /// Outcome: the address, or why there is none.
    enum Outcome: Sendable, Equatable {
        case resolved(String)
        case failed(String)
    }

    static func resolve(_ name: String, timeout: Duration, destination: Destination = Destination()) -> Outcome {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { return .failed("socket() failed, errno \(errno)") }
        defer { close(fd) }
        var ttl: UInt8 = 255
        _ = setsockopt(fd, Int32(IPPROTO_IP), IP_MULTICAST_TTL, &ttl, socklen_t(1))
        let id = UInt16.random(in: 1...UInt16.max)
        guard let query = MDNSMessage.query(name: name, id: id) else { return .failed("'\(name)' is not a valid DNS name") }
        var to = sockaddr_in()
        to.sin_family = sa_family_t(AF_INET)
        to.sin_port = destination.port.bigEndian
        to.sin_addr.s_addr = inet_addr(destination.address)
        let sent = withUnsafePointer(to: &to) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                sendto(fd, query, query.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard sent == query.count else {
            return .failed("mDNS query could not be sent to \(destination.address):\(destination.port) (errno \(errno))")
        }
        let deadline = ContinuousClock.now + timeout
        var buffer = [UInt8](repeating: 0, count: 9000)
        while ContinuousClock.now < deadline {
            let left = deadline - ContinuousClock.now
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, Int32(max(1, min(left.milliseconds, 60_000))))
            guard ready > 0 else { continue }
            let n = recv(fd, &buffer, buffer.count, 0)
            guard n > 0 else { continue }
            if let address = MDNSMessage.address(for: name, in: Array(buffer[0..<n])) { return .resolved(address) }
        }
        return .failed("no mDNS answer for '\(name)' within \(timeout)")
    }
}
