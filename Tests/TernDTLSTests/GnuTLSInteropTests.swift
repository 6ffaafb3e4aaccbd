import Foundation
import Testing
import TernCore
@testable import TernDTLS
#if canImport(Glibc)
import Glibc
#endif

/// The endpoint against an independent DTLS implementation: GnuTLS's `gnutls-serv` (Debian
/// package gnutls-bin) over real loopback UDP. Skipped when the tool is absent. GnuTLS 3.7
/// knows only the AES-CM SRTP profiles, and its server sends a HelloVerifyRequest (RFC 6347
/// §4.2.1) first, so this also covers the cookie exchange. Waits are bounded; nothing asserts time.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: gnuTLSServerPath)))
struct GnuTLSInteropTests {
    @Test func handshakeSRTPAndEchoAgainstGnuTLSServer() throws {
        let certificate = try DTLSCertificate.generate(.ecdsaP256)
        let run = try GnuTLSServer(certificate: certificate)
        defer { run.stop() }
        let endpoint = try DTLSEndpoint(configuration: .init(
            role: .client, certificate: try Certificates.shared(.ecdsaP256),
            remoteFingerprints: [certificate.fingerprint(.sha256)],
            srtpProfiles: [.aeadAes128Gcm, .aes128CmSha1_80],
            initialRetransmissionTimeout: .milliseconds(200)))
        let socket = try LoopbackUDPSocket(port: run.port)
        var events = socket.drive(endpoint, seconds: 20) { $0.contains { if case .connected = $0 { true } else { false } } }
        let info = try #require(endpoint.connectionInfo, "events: \(events)")
        #expect(info.srtpProfile == .aes128CmSha1_80)
        #expect(info.cipherSuite.hasPrefix("ECDHE-ECDSA-"))
        #expect(DTLSTestHarness.keying(in: events)?.clientWriteKey.count == 16)

        try endpoint.send(applicationData: Array("hello tern\n".utf8))
        events += socket.drive(endpoint, seconds: 10) { !DTLSTestHarness.applicationData(in: $0).isEmpty }
        let echoed = DTLSTestHarness.applicationData(in: events).flatMap { $0 }
        #expect(String(decoding: echoed, as: UTF8.self).hasPrefix("hello tern"))
        endpoint.close(now: SystemClock().now())
        while let datagram = endpoint.pollTransmit() { socket.send(datagram) }
    }

    @Test func gnuTLSClientHandshakesWithOurServer() throws {
        let clientCertificate = try DTLSCertificate.generate(.ecdsaP256)
        let socket = try LoopbackUDPSocket.listening()
        let endpoint = try DTLSEndpoint(configuration: .init(
            role: .server, certificate: try Certificates.shared(.ecdsaP256),
            remoteFingerprints: [clientCertificate.fingerprint(.sha256)], srtpProfiles: [.aes128CmSha1_80]))
        let run = try GnuTLSClient(certificate: clientCertificate, port: socket.port, input: "hello from gnutls\n")
        defer { run.stop() }
        let events = socket.drive(endpoint, seconds: 20) { !DTLSTestHarness.applicationData(in: $0).isEmpty }
        let info = try #require(endpoint.connectionInfo, "events: \(events)")
        #expect(info.role == .server)
        #expect(info.srtpProfile == .aes128CmSha1_80)
        #expect(info.remoteFingerprint == clientCertificate.fingerprint(.sha256))
        let received = DTLSTestHarness.applicationData(in: events).flatMap { $0 }
        #expect(String(decoding: received, as: UTF8.self).hasPrefix("hello from gnutls"))
    }

    /// `gnutls-cli --rehandshake`: a real client that renegotiates at once after its handshake
    /// (OpenSSL 3 servers refuse client-initiated renegotiation by default; kept refused here).
    @Test func aClientAskingToRenegotiateIsRefusedAndTheConnectionGoesOn() throws {
        let clientCertificate = try DTLSCertificate.generate(.ecdsaP256)
        let socket = try LoopbackUDPSocket.listening()
        let endpoint = try DTLSEndpoint(configuration: .init(
            role: .server, certificate: try Certificates.shared(.ecdsaP256),
            remoteFingerprints: [clientCertificate.fingerprint(.sha256)], srtpProfiles: [.aes128CmSha1_80]))
        let run = try GnuTLSClient(certificate: clientCertificate, port: socket.port, input: "", extraArguments: ["--rehandshake"])
        defer { run.stop() }
        let refused: ([DTLSEvent]) -> Bool = {
            $0.contains { if case let .alert(a) = $0 { a.code == 100 && a.direction == .sent && !a.isFatal } else { false } }
        }
        let events = socket.drive(endpoint, seconds: 20, until: refused)
        #expect(refused(events), "a warning no_renegotiation alert went out: \(events)")
        #expect(events.filter { if case .connected = $0 { true } else { false } }.count == 1, "one handshake, not two")
        #expect(endpoint.state == .connected)
        try endpoint.send(applicationData: Array("still here".utf8))
        #expect(endpoint.pollTransmit() != nil, "application data still goes out")
    }

    /// gnutls-serv in echo mode answers a client's `**REHANDSHAKE**` line with a HelloRequest:
    /// a server asking our client to renegotiate mid-call.
    @Test func aServerAskingToRenegotiateIsRefusedAndTheConnectionGoesOn() throws {
        let certificate = try DTLSCertificate.generate(.ecdsaP256)
        let run = try GnuTLSServer(certificate: certificate)
        defer { run.stop() }
        let endpoint = try DTLSEndpoint(configuration: .init(
            role: .client, certificate: try Certificates.shared(.ecdsaP256),
            remoteFingerprints: [certificate.fingerprint(.sha256)], srtpProfiles: [.aes128CmSha1_80],
            initialRetransmissionTimeout: .milliseconds(200)))
        let socket = try LoopbackUDPSocket(port: run.port)
        var events = socket.drive(endpoint, seconds: 20) { $0.contains { if case .connected = $0 { true } else { false } } }
        try #require(endpoint.state == .connected, "events: \(events)")
        try endpoint.send(applicationData: Array("**REHANDSHAKE**\n".utf8))
        let refused: ([DTLSEvent]) -> Bool = {
            $0.contains { if case let .alert(a) = $0 { a.code == 100 && a.direction == .sent && !a.isFatal } else { false } }
        }
        events += socket.drive(endpoint, seconds: 10, until: refused)
        #expect(refused(events), "a warning no_renegotiation alert went out: \(events)")
        #expect(events.filter { if case .connected = $0 { true } else { false } }.count == 1, "one handshake, not two")
        #expect(endpoint.state == .connected)
        try endpoint.send(applicationData: Array("after\n".utf8))
        events += socket.drive(endpoint, seconds: 10) { DTLSTestHarness.applicationData(in: $0).contains { String(decoding: $0, as: UTF8.self).contains("after") } }
        #expect(DTLSTestHarness.applicationData(in: events).contains { String(decoding: $0, as: UTF8.self).contains("after") },
                "the echo server still answers")
    }

    @Test func gnuTLSServerWithAnotherCertificateIsRejected() throws {
        let certificate = try DTLSCertificate.generate(.ecdsaP256)
        let expected = try DTLSCertificate.generate(.ecdsaP256).fingerprint()
        let run = try GnuTLSServer(certificate: certificate)
        defer { run.stop() }
        let endpoint = try DTLSEndpoint(configuration: .init(
            role: .client, certificate: try Certificates.shared(.ecdsaP256), remoteFingerprints: [expected],
            initialRetransmissionTimeout: .milliseconds(200)))
        let socket = try LoopbackUDPSocket(port: run.port)
        let events = socket.drive(endpoint, seconds: 20) { _ in endpoint.state == .failed }
        #expect(DTLSTestHarness.failure(in: events)
            == .fingerprintMismatch(expected: [expected], actual: certificate.fingerprint()))
        #expect(endpoint.connectionInfo == nil)
    }
}

let gnuTLSServerPath = "/usr/bin/gnutls-serv"

/// A `gnutls-serv --udp --echo` child process with a given certificate.
final class GnuTLSServer {
    let port: UInt16
    private let process = Process()
    private let directory: URL

    init(certificate: DTLSCertificate) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tern-gnutls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let cert = directory.appendingPathComponent("cert.pem"), key = directory.appendingPathComponent("key.pem")
        try certificate.certificatePEM.write(to: cert, atomically: true, encoding: .utf8)
        try certificate.privateKeyPEM.write(to: key, atomically: true, encoding: .utf8)
        port = try LoopbackUDPSocket.freePort()
        process.executableURL = URL(fileURLWithPath: gnuTLSServerPath)
        process.arguments = ["--udp", "--echo", "--quiet", "-p", "\(port)", "--x509certfile", cert.path,
                             "--x509keyfile", key.path, "--srtp-profiles=SRTP_AES128_CM_HMAC_SHA1_80"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// Ends the child with SIGKILL: it inherits a signal mask from the test runner's thread that
    /// blocks SIGTERM, so `terminate()` would leave it running and `waitUntilExit()` would hang.
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        for _ in 0..<200 where process.isRunning { usleep(10_000) }
        try? FileManager.default.removeItem(at: directory)
    }
}

/// A `gnutls-cli --udp` child process with a client certificate, sending `input` once connected.
final class GnuTLSClient {
    private let process = Process()
    private let directory: URL
    private let stdin = Pipe()

    init(certificate: DTLSCertificate, port: UInt16, input: String, extraArguments: [String] = []) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tern-gnutls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let cert = directory.appendingPathComponent("cert.pem"), key = directory.appendingPathComponent("key.pem")
        try certificate.certificatePEM.write(to: cert, atomically: true, encoding: .utf8)
        try certificate.privateKeyPEM.write(to: key, atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/gnutls-cli")
        process.arguments = ["--udp", "--insecure", "-p", "\(port)", "--x509certfile", cert.path, "--x509keyfile", key.path,
                             "--srtp-profiles=SRTP_AES128_CM_HMAC_SHA1_80"] + extraArguments + ["127.0.0.1"]
        process.standardInput = stdin
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
    }

    /// SIGKILL, for the reason given at `GnuTLSServer.stop`.
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        for _ in 0..<200 where process.isRunning { usleep(10_000) }
        try? FileManager.default.removeItem(at: directory)
    }
}

/// A UDP socket on 127.0.0.1 that drives an endpoint with the system clock: either connected
/// to a port, or listening and connected to the first sender.
final class LoopbackUDPSocket {
    private let descriptor: Int32
    private var connected: Bool
    /// The local port of a `listening()` socket (0 for a connected one).
    private(set) var port: UInt16 = 0

    /// Binds 127.0.0.1 on a free port; `drive` connects to whoever sends first.
    static func listening() throws -> LoopbackUDPSocket {
        let socket = LoopbackUDPSocket(descriptor: Glibc.socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0))
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket.descriptor, $0, length) == 0 && getsockname(socket.descriptor, $0, &length) == 0
            }
        }
        guard ok else { throw POSIXError(.EADDRINUSE) }
        socket.port = UInt16(bigEndian: address.sin_port)
        return socket
    }

    private init(descriptor: Int32) {
        self.descriptor = descriptor
        self.connected = false
    }

    init(port: UInt16) throws {
        descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        connected = true
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        var address = Self.loopback(port: port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { throw POSIXError(.ECONNREFUSED) }
    }

    deinit { close(descriptor) }

    static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// A port the kernel just reported free (bound to port 0, then closed).
    static func freePort() throws -> UInt16 {
        let probe = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(probe) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(probe, $0, length) == 0 && getsockname(probe, $0, &length) == 0
            }
        }
        guard ok else { throw POSIXError(.EADDRINUSE) }
        return UInt16(bigEndian: address.sin_port)
    }

    func send(_ datagram: [UInt8]) {
        guard connected else { return }
        _ = datagram.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, 0) }  // refused early: retransmitted
    }

    func receive(timeoutMilliseconds: Int32) -> [UInt8]? {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, timeoutMilliseconds) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var peer = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let count = withUnsafeMutablePointer(to: &peer) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(descriptor, &buffer, buffer.count, 0, $0, &length) }
        }
        if count > 0, !connected {
            connected = withUnsafePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, length) == 0 }
            }
        }
        return count > 0 ? Array(buffer[0..<count]) : nil
    }

    /// Pumps datagrams, timeouts and events until `done(events)` or `seconds` pass; returns the events.
    func drive(_ endpoint: DTLSEndpoint, seconds: Int, until done: ([DTLSEvent]) -> Bool) -> [DTLSEvent] {
        let clock = SystemClock()
        let end = clock.now() + .seconds(seconds)
        var events: [DTLSEvent] = []
        endpoint.start(now: clock.now())
        while clock.now() < end {
            while let datagram = endpoint.pollTransmit() { send(datagram) }
            while let event = endpoint.pollEvent() { events.append(event) }
            if done(events) || endpoint.state == .failed { break }
            if let datagram = receive(timeoutMilliseconds: 20) { endpoint.handle(datagram: datagram, now: clock.now()) }
            endpoint.handleTimeout(now: clock.now())
        }
        return events
    }
}
