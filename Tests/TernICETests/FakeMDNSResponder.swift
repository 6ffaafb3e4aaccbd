import Foundation
import Synchronization
@testable import TernICE

/// A unicast stand-in for an mDNS responder on 127.0.0.1: answers every A/AAAA question for
/// `name` (any name when nil) with `address` (the container has no multicast responder). With
/// `answersFromAnotherPort` its answers leave from a second socket, as a spoofing host's would.
final class FakeMDNSResponder: @unchecked Sendable {
    // `fd` and `port` are set once in init; `running` is atomic.
    let port: UInt16
    private let fd: Int32
    private let counters = Counters()
    /// Questions answered so far.
    var queries: Int { counters.queries.load(ordering: .relaxed) }

    private final class Counters: Sendable {
        let running = Atomic(true)
        let queries = Atomic(0)
    }

    /// `answersOnceAsked`: hold every answer until that many questions have arrived (then
    /// answer them all, and later ones at once): only a resolver that asks side by side gets any.
    init(name: String?, address: [UInt8], answersFromAnotherPort: Bool = false, answersOnceAsked: Int = 1) throws {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        self.fd = fd
        let replyFD = answersFromAnotherPort ? socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0) : fd
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw FakeResponderError.bindFailed }
        port = UInt16(bigEndian: addr.sin_port)
        let counters = self.counters
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 2048)
            var held: [([UInt8], sockaddr_storage, socklen_t)] = []
            while counters.running.load(ordering: .relaxed) {
                var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&pfd, 1, 50) > 0 else { continue }
                var from = sockaddr_storage()
                var fromLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
                let n = withUnsafeMutablePointer(to: &from) { p in
                    p.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(fd, &buffer, buffer.count, 0, $0, &fromLength) }
                }
                guard n > 0, let q = MDNSMessage.question(in: Array(buffer[0..<n])), name == nil || q.name == name,
                      let answer = MDNSMessage.response(id: q.id, name: q.name, ipv4: address) else { continue }
                counters.queries.add(1, ordering: .relaxed)
                held.append((answer, from, fromLength))
                guard counters.queries.load(ordering: .relaxed) >= answersOnceAsked else { continue }
                for (answer, to, length) in held {
                    var to = to
                    _ = withUnsafePointer(to: &to) { p in
                        p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(replyFD, answer, answer.count, 0, $0, length) }
                    }
                }
                held.removeAll()
            }
            close(fd)
            if replyFD != fd { close(replyFD) }
        }
    }

    func stop() { counters.running.store(false, ordering: .relaxed) }
    deinit { stop() }
}

enum FakeResponderError: Error { case bindFailed }
