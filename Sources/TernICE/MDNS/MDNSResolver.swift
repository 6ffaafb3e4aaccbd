import Foundation
import Synchronization

/// Resolves the peer's `.local` host candidate names (draft-ietf-mmusic-mdns-ice-candidates §3.2)
/// with one-shot mDNS queries (RFC 6762 §5.1) for the whole process on one thread and one socket:
/// a name costs an entry in a table, not a thread blocked for the resolution timeout. Any host on
/// the link may answer, so an answer counts only from port 5353 and an address on a local subnet
/// (RFC 6762 §6, §11) — or, for a unicast destination (tests), from that destination.
final class MDNSResolver: Sendable {
    static let shared = MDNSResolver()

    /// Where queries go: the mDNS group and port (RFC 6762 §3); tests point it at a fake responder.
    struct Destination: Sendable, Equatable {
        var address = "224.0.0.251"
        var port: UInt16 = 5353
        var isMulticast: Bool { IPAddressClass(address) == .multicast }
    }

    /// The address, or why there is none.
    enum Outcome: Sendable, Equatable {
        case resolved(String)
        case failed(String)
    }

    /// Resolutions pending in the process at once; past it a name fails at once. Each transport
    /// also caps its own (`ICEConfiguration.maximumMDNSCandidates`).
    static let maximumPending = 256

    private struct Query {
        let name: String
        let destination: Destination
        let timeout: Duration
        let deadline: ContinuousClock.Instant
        let completion: @Sendable (Outcome) -> Void
        var sent = false
    }

    private struct State {
        var queries: [UInt64: Query] = [:]
        var nextID: UInt64 = 0
        var threadRunning = false
    }

    private let state = Mutex(State())
    /// Wakes the resolver thread when a query is added: a non-blocking pipe that lives as long as
    /// the resolver (the process).
    private let wakeRead: Int32
    private let wakeWrite: Int32

    private init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
        }
        (wakeRead, wakeWrite) = (ends[0], ends[1])
    }

    /// Starts resolving `name`; `completion` runs once, on a global queue, with the outcome.
    func resolve(_ name: String, timeout: Duration, destination: Destination = Destination(),
                 completion: @escaping @Sendable (Outcome) -> Void) {
        guard MDNSMessage.query(name: name, id: 0) != nil else {
            return Self.finish(completion, .failed("'\(name)' is not a valid DNS name"))
        }
        let query = Query(name: name, destination: destination, timeout: timeout,
                          deadline: .now + timeout, completion: completion)
        enum Admission { case refused, queued, startThread }
        let admission = state.withLock { s -> Admission in
            guard s.queries.count < Self.maximumPending else { return .refused }
            s.nextID &+= 1
            s.queries[s.nextID] = query
            if s.threadRunning { return .queued }
            s.threadRunning = true
            return .startThread
        }
        switch admission {
        case .refused:
            Self.finish(completion, .failed("more than \(Self.maximumPending) mDNS resolutions pending in this process"))
        case .queued:
            var one: UInt8 = 1
            _ = write(wakeWrite, &one, 1)
        case .startThread:
            let thread = Thread { [self] in run() }
            thread.name = "tern-mdns"
            thread.start()
        }
    }

    private static func finish(_ completion: @escaping @Sendable (Outcome) -> Void, _ outcome: Outcome) {
        DispatchQueue.global().async { completion(outcome) }
    }

    /// The resolver thread: sends new queries, reads answers, expires queries at their deadline,
    /// and ends when none is left.
    private func run() {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        var ttl: UInt8 = 255 // RFC 6762 §11
        if fd >= 0 { _ = setsockopt(fd, Int32(IPPROTO_IP), IP_MULTICAST_TTL, &ttl, socklen_t(1)) }
        defer { if fd >= 0 { close(fd) } }
        var buffer = [UInt8](repeating: 0, count: 9000)
        while true {
            let now = ContinuousClock.now
            var toSend: [(UInt64, Query)] = []
            var expired: [Query] = []
            let next = state.withLock { s -> ContinuousClock.Instant? in
                for (id, q) in s.queries where fd < 0 || q.deadline <= now {
                    expired.append(q)
                    s.queries[id] = nil
                }
                for (id, q) in s.queries where !q.sent {
                    toSend.append((id, q))
                    s.queries[id]?.sent = true
                }
                guard let first = s.queries.values.map(\.deadline).min() else {
                    s.threadRunning = false
                    return nil
                }
                return first
            }
            for q in expired {
                Self.finish(q.completion, .failed(fd < 0 ? "mDNS socket could not be opened (errno \(errno))"
                                                         : "no mDNS answer for '\(q.name)' within \(q.timeout)"))
            }
            for (id, q) in toSend where !send(q, id: id, on: fd) {
                let reason = "mDNS query could not be sent to \(q.destination.address):\(q.destination.port) (errno \(errno))"
                if let failed = state.withLock({ $0.queries.removeValue(forKey: id) }) {
                    Self.finish(failed.completion, .failed(reason))
                }
            }
            guard let next else { return }
            let wait = max(1, min((next - .now).milliseconds, 60_000))
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            guard poll(&fds, 2, Int32(wait.rounded(.up))) > 0 else { continue }
            if fds[1].revents != 0 {
                var drained = [UInt8](repeating: 0, count: 64)
                while read(wakeRead, &drained, drained.count) > 0 {}
            }
            if fds[0].revents != 0 { readAnswers(fd, into: &buffer) }
        }
    }

    private func send(_ q: Query, id: UInt64, on fd: Int32) -> Bool {
        guard let message = MDNSMessage.query(name: q.name, id: UInt16(truncatingIfNeeded: id)) else { return false }
        var to = sockaddr_in()
        to.sin_family = sa_family_t(AF_INET)
        to.sin_port = q.destination.port.bigEndian
        to.sin_addr.s_addr = inet_addr(q.destination.address)
        let sent = withUnsafePointer(to: &to) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                sendto(fd, message, message.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return sent == message.count
    }

    /// Reads every queued datagram; an answer from an acceptable source completes the queries it
    /// answers.
    private func readAnswers(_ fd: Int32, into buffer: inout [UInt8]) {
        while true {
            var from = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let n = withUnsafeMutablePointer(to: &from) { p in
                p.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    recvfrom(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT), $0, &length)
                }
            }
            guard n > 0 else { return }
            let sourcePort = UInt16(bigEndian: from.sin_port)
            let source = from.sin_addr.s_addr // network order
            let message = Array(buffer[0..<n])
            let answered = state.withLock { s -> [(Query, String)] in
                var found: [(Query, String)] = []
                for (id, q) in s.queries where q.sent && Self.accepts(source: source, port: sourcePort, for: q.destination) {
                    if let address = MDNSMessage.address(for: q.name, in: message) {
                        found.append((q, address))
                        s.queries[id] = nil
                    }
                }
                return found
            }
            for (q, address) in answered { Self.finish(q.completion, .resolved(address)) }
        }
    }

    /// RFC 6762 §6: responses come from port 5353 (the destination's port); §11: from the local
    /// link. A unicast destination (a test's responder) must answer from its own address.
    private static func accepts(source: in_addr_t, port: UInt16, for destination: Destination) -> Bool {
        guard port == destination.port else { return false }
        if destination.isMulticast { return LocalLink.containsIPv4(source) }
        return source == inet_addr(destination.address)
    }
}

/// The IPv4 subnets of this host's interfaces.
enum LocalLink {
    /// True when `address` (network byte order) is on the subnet of one of this host's interfaces.
    static func containsIPv4(_ address: in_addr_t) -> Bool {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return false }
        defer { freeifaddrs(first) }
        var node: UnsafeMutablePointer<ifaddrs>? = first
        while let n = node {
            defer { node = n.pointee.ifa_next }
            guard let addr = n.pointee.ifa_addr, let mask = n.pointee.ifa_netmask,
                  addr.pointee.sa_family == sa_family_t(AF_INET) else { continue }
            let own = addr.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr.s_addr }
            let bits = mask.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr.s_addr }
            if own & bits == address & bits { return true }
        }
        return false
    }
}
