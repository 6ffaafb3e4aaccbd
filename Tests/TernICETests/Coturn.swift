import Foundation

/// A real coturn `turnserver` on 127.0.0.1, started by the test and stopped at the end.
/// Long-term credentials `u:p`, realm `tern`, loopback peers allowed, no DTLS, no CLI; TLS
/// only when asked (`tls: true`, with a throwaway test CA and a server certificate it signed for
/// IP 127.0.0.1).
final class Coturn: @unchecked Sendable {
    // Set once in init, then only read; `process` is Foundation's (thread-safe terminate/wait).
    static let executable = "/usr/bin/turnserver"
    static let openssl = "/usr/bin/openssl"
    let port: UInt16
    /// The TLS listening port (`--tls-listening-port`), when started with `tls: true`.
    let tlsPort: UInt16?
    /// The test CA that signed the server certificate (PEM), when started with `tls: true`.
    let certificateAuthorityPEM: String?
    private let process = Process()
    let logPath: String
    private let certificateDirectory: String?

    /// Whether turnserver (and the openssl CLI, for TLS) is installed: tests that need it are
    /// marked `.enabled(if: Coturn.installed, …)` so they show as skipped without it.
    static var installed: Bool {
        FileManager.default.isExecutableFile(atPath: executable) && FileManager.default.isExecutableFile(atPath: openssl)
    }

    /// Nil (with the reason printed) when turnserver (or, for `tls`, the openssl CLI) is not installed.
    static func startIfInstalled(tls: Bool = false) throws -> Coturn? {
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            print("skipping: \(executable) is not installed (apt-get install coturn)")
            return nil
        }
        if tls, !FileManager.default.isExecutableFile(atPath: openssl) {
            print("skipping: \(openssl) is not installed (apt-get install openssl); it makes the test certificate")
            return nil
        }
        // A port found free can still be taken before turnserver binds it (tests run in
        // parallel): another port, up to three times.
        for attempt in 1...3 {
            do {
                return try Coturn(tls: tls)
            } catch CoturnError.didNotStart(let log) where attempt < 3 {
                print("turnserver did not start (\(log)); another port")
            }
        }
        return try Coturn(tls: tls)
    }

    /// Loopback by default; `namespace` runs it inside `ip netns exec <namespace>` on `ip`.
    init(ip: String = "127.0.0.1", namespace: String? = nil, tls: Bool = false) throws {
        port = namespace == nil ? try Self.freePort() : 3478
        logPath = NSTemporaryDirectory() + "tern-coturn-\(namespace ?? "lo")-\(port).log"
        let relayLow = Int(port) + 1
        var arguments = [
            "-n", "--no-cli", "--no-dtls",
            "--listening-ip=\(ip)", "--relay-ip=\(ip)", "--listening-port=\(port)",
            "--min-port=\(relayLow)", "--max-port=\(relayLow + 200)",
            "--lt-cred-mech", "--user=u:p", "--realm=tern", "--allow-loopback-peers",
            "--log-file=\(logPath)", "--simple-log", "--no-stdout-log",
        ]
        if tls {
            let directory = try Self.makeCertificate(ip: ip)
            certificateDirectory = directory
            certificateAuthorityPEM = try String(contentsOfFile: "\(directory)/ca.pem", encoding: .utf8)
            let tlsPort = UInt16(relayLow + 201)
            self.tlsPort = tlsPort
            arguments += ["--cert=\(directory)/cert.pem", "--pkey=\(directory)/key.pem", "--tls-listening-port=\(tlsPort)"]
        } else {
            certificateDirectory = nil
            certificateAuthorityPEM = nil
            tlsPort = nil
            arguments.append("--no-tls")
        }
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
                && tlsPort.map { NetworkLab.waitForTCPListener(namespace: namespace, port: $0) } ?? true
        } else {
            // coturn opens its TCP listener before its per-core UDP listeners (tens of ms apart
            // here, longer on a loaded machine), so the UDP side is proven by a STUN answer.
            Self.waitForTCPListener(port: port, attempts: 200)
                && Self.waitForSTUNAnswerOverUDP(port: port, attempts: 200)
                && tlsPort.map { Self.waitForTCPListener(port: $0, attempts: 200) } ?? true
        }
        guard ready else {
            stop()
            throw CoturnError.didNotStart(log: logPath)
        }
    }

    /// In a fresh temporary directory: a throwaway P-256 test CA (`ca.pem`) and a server
    /// certificate it signed (`cert.pem`, key `key.pem`) with subjectAltName IP:`ip` only
    /// (so `turns:127.0.0.1` verifies and `turns:localhost` is a host name mismatch).
    private static func makeCertificate(ip: String) throws -> String {
        let directory = NSTemporaryDirectory() + "tern-coturn-tls-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try "subjectAltName=IP:\(ip)\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n"
            .write(toFile: "\(directory)/server.ext", atomically: true, encoding: .utf8)
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try runOpenSSL(["req", "-x509"] + ec + ["-keyout", "\(directory)/ca.key", "-out", "\(directory)/ca.pem",
                       "-days", "1", "-subj", "/CN=Tern Test CA",
                       "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign"])
        try runOpenSSL(["req"] + ec + ["-keyout", "\(directory)/key.pem", "-out", "\(directory)/server.csr",
                       "-subj", "/CN=tern-test-turn"])
        try runOpenSSL(["x509", "-req", "-in", "\(directory)/server.csr", "-CA", "\(directory)/ca.pem",
                        "-CAkey", "\(directory)/ca.key", "-CAcreateserial", "-out", "\(directory)/cert.pem",
                        "-days", "1", "-extfile", "\(directory)/server.ext"])
        return directory
    }

    private static func runOpenSSL(_ arguments: [String]) throws {
        let make = Process()
        make.executableURL = URL(fileURLWithPath: openssl)
        make.arguments = arguments
        make.standardOutput = FileHandle.nullDevice
        make.standardError = FileHandle.nullDevice
        try make.run()
        make.waitUntilExit()
        guard make.terminationStatus == 0 else { throw CoturnError.certificateFailed(status: make.terminationStatus) }
    }

    /// SIGTERM, then SIGKILL after 1 s: coturn 4.6 does not always exit on SIGTERM.
    func stop() {
        if let certificateDirectory { try? FileManager.default.removeItem(atPath: certificateDirectory) }
        guard process.isRunning else { return }
        process.terminate()
        for _ in 0..<50 where process.isRunning { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        for _ in 0..<50 where process.isRunning { usleep(20_000) }
    }

    deinit { stop() }

    /// A port nothing listens on right now, over UDP and TCP, and its TLS port (201 above it,
    /// past the relays) free over TCP. Below Linux's ephemeral range (32768–60999), so a client
    /// socket of a test running beside this one is not given one of them meanwhile.
    private static func freePort() throws -> UInt16 {
        for _ in 0..<40 {
            let candidate = UInt16.random(in: 10_000...30_000)
            if isFree(candidate, type: SOCK_DGRAM), isFree(candidate, type: SOCK_STREAM), isFree(candidate + 202, type: SOCK_STREAM) {
                return candidate
            }
        }
        throw CoturnError.noFreePort
    }

    private static func isFree(_ port: UInt16, type: __socket_type) -> Bool {
        let fd = socket(AF_INET, Int32(type.rawValue), 0)
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

    /// The last `lines` lines of coturn's log, for a failing test to print.
    func logTail(lines: Int = 40) -> String {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "(no log at \(logPath))"
        return text.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines).joined(separator: "\n")
    }

    /// Sends a STUN Binding request (RFC 8489 §6) to 127.0.0.1:`port` over UDP until a datagram
    /// comes back: each attempt waits up to 50 ms for the answer.
    private static func waitForSTUNAnswerOverUDP(port: UInt16, attempts: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 0, tv_usec: 50_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let request: [UInt8] = [0x00, 0x01, 0x00, 0x00, 0x21, 0x12, 0xA4, 0x42] + (0..<12).map { _ in UInt8.random(in: 0...255) }
        var answer = [UInt8](repeating: 0, count: 1500)
        for _ in 0..<attempts {
            _ = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, request, request.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            let n = recv(fd, &answer, answer.count, 0)
            if n >= 20, answer[0] == 0x01, answer[1] == 0x01 { return true }
            if n < 0 { usleep(20_000) }
        }
        return false
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
    case certificateFailed(status: Int32)
    var description: String {
        switch self {
        case .noFreePort: "no free port for turnserver"
        case let .certificateFailed(status): "openssl could not make the test certificates (exit \(status))"
        case let .didNotStart(log): "turnserver did not start listening; see \(log)"
        }
    }
}
