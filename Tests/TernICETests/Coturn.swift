import Foundation

/// A real coturn `turnserver` on 127.0.0.1, started by the test and stopped at the end.
/// Long-term credentials `u:p`, realm `tern`, loopback peers allowed, no TLS/DTLS, no CLI.
final class Coturn: @unchecked Sendable {
    // Set once in init, then only read; `process` is Foundation's (thread-safe terminate/wait).
    static let executable = "/usr/bin/turnserver"
    let port: UInt16
    private let process = Process()
    let logPath: String

    /// Nil (with the reason printed) when turnserver is not installed.
    static func startIfInstalled() throws -> Coturn? {
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            print("skipping: \(executable) is not installed (apt-get install coturn)")
            return nil
        }
        return try Coturn()
    }

    /// Loopback by default; `namespace` runs it inside `ip netns exec <namespace>` on `ip`.
    init(ip: String = "127.0.0.1", namespace: String? = nil) throws {
        port = namespace == nil ? try Self.freePort() : 3478
        logPath = NSTemporaryDirectory() + "tern-coturn-\(namespace ?? "lo")-\(port).log"
        let relayLow = Int(port) + 1
        var arguments = [
            "-n", "--no-cli", "--no-tls", "--no-dtls",
            "--listening-ip=\(ip)", "--relay-ip=\(ip)", "--listening-port=\(port)",
            "--min-port=\(relayLow)", "--max-port=\(relayLow + 200)",
            "--lt-cred-mech", "--user=u:p", "--realm=tern", "--allow-loopback-peers",
            "--log-file=\(logPath)", "--simple-log", "--no-stdout-log",
        ]
        if let namespace {
            process.executableURL = URL(fileURLWithPath: NetworkLab.ip)
            arguments = ["netns", "exec", namespace, Self.executable] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: Self.executable)
        }
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let ready = if let namespace {
            NetworkLab.waitForTCPListener(namespace: namespace, port: port)
        } else {
            Self.waitForTCPListener(port: port, attempts: 200)
        }
        guard ready else {
            stop()
            throw CoturnError.didNotStart(log: logPath)
        }
    }

    /// SIGTERM, then SIGKILL after 1 s: coturn 4.6 does not always exit on SIGTERM.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        for _ in 0..<50 where process.isRunning { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        for _ in 0..<50 where process.isRunning { usleep(20_000) }
    }

    deinit { stop() }

    /// A port nothing listens on right now (bind to 0, read, close) — with relays above it.
    private static func freePort() throws -> UInt16 {
        for _ in 0..<20 {
            let candidate = UInt16.random(in: 20_000...40_000)
            if isFree(candidate) { return candidate }
        }
        throw CoturnError.noFreePort
    }

    private static func isFree(_ port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    private static func waitForTCPListener(port: UInt16, attempts: Int) -> Bool {
        for _ in 0..<attempts {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_port = port.bigEndian
            addr.sin_addr.s_addr = inet_addr("127.0.0.1")
            let ok = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
            close(fd)
            if ok { return true }
            usleep(20_000)
        }
        return false
    }
}

enum CoturnError: Error, CustomStringConvertible {
    case noFreePort
    case didNotStart(log: String)
    var description: String {
        switch self {
        case .noFreePort: "no free port for turnserver"
        case let .didNotStart(log): "turnserver did not start listening; see \(log)"
        }
    }
}
