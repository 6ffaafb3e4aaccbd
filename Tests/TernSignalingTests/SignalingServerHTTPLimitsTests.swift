import Foundation
import Testing
import TernSignaling
import TernSignalingClient
import TernSignalingServer
#if canImport(Glibc)
import Glibc
#endif

/// What the server refuses before a WebSocket exists: connections that never upgrade, and
/// upgrades from browser pages of other sites. Raw TCP, as an attacker would speak.
@Suite("Signaling server: before the upgrade")
struct SignalingServerHTTPLimitsTests {
    @Test("a TCP connection that sends nothing is closed at upgradeTimeout and counted; an upgraded, registered one stays")
    func silentConnectionIsClosed() async throws {
        // Long enough for a real client's upgrade on a loaded 2-core machine, short for the test.
        let server = SignalingServer(host: "127.0.0.1", port: 0, upgradeTimeout: .seconds(2))
        let port = try await server.start()
        let client = try await SignalingClient.connect(url: "ws://127.0.0.1:\(port)/v1")
        try await client.register(user: "alice", token: "")
        let silent = try RawConnection(port: port)
        let started = ContinuousClock.now
        #expect(await offPool { silent.readUntilClosed(timeoutSeconds: 15) } == "", "closed without a byte")
        let waited = ContinuousClock.now - started
        #expect(waited >= .milliseconds(1_900) && waited < .seconds(12), "closed at the deadline, not before: \(waited)")
        #expect(server.counters.upgradeTimeouts == 1)
        // The WebSocket, older than the deadline, still works.
        try await client.send(.register(user: "alice", token: ""))
        var messages = client.messages.makeAsyncIterator()
        #expect(await messages.next() == .registered(user: "alice"))
        #expect(await messages.next() == .registered(user: "alice"))
        await client.close()
        await server.shutdown()
    }

    @Test("with allowedOrigins: an upgrade from another site's page is refused and counted; the allowed origin and no Origin upgrade")
    func originAllowList() async throws {
        let server = SignalingServer(host: "127.0.0.1", port: 0, allowedOrigins: ["https://app.example.com"])
        let port = try await server.start()
        func upgrade(origin: String?) async throws -> String {
            let connection = try RawConnection(port: port)
            var request = "GET /v1 HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
            if let origin { request += "Origin: \(origin)\r\n" }
            connection.write(request + "\r\n")
            return await offPool { connection.readStatusLine(timeoutSeconds: 30) }
        }
        #expect(try await upgrade(origin: "https://evil.example").contains(" 101 ") == false)
        #expect(server.counters.originsRefused == 1)
        #expect(try await upgrade(origin: "https://app.example.com").contains(" 101 "))
        #expect(try await upgrade(origin: nil).contains(" 101 "), "not from a browser: no Origin to check")
        #expect(server.counters.originsRefused == 1)
        await server.shutdown()
    }
}

/// Runs blocking socket work on a thread of its own: blocking a thread of the cooperative pool
/// (two on this machine) would starve the server under test, whose upgrades run there.
func offPool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: body()) }
    }
}

/// A blocking TCP client to 127.0.0.1, speaking bytes as an attacker would (use it through
/// `offPool` from async code). `@unchecked Sendable`: one test drives it at a time.
final class RawConnection: @unchecked Sendable {
    let fd: Int32

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { close(fd); throw POSIXError(.ECONNREFUSED) }
    }

    deinit { close(fd) }

    func write(_ text: String) {
        _ = text.utf8CString.withUnsafeBufferPointer { send(fd, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL)) }
    }

    /// Everything read until the peer closes (or the timeout).
    func readUntilClosed(timeoutSeconds: Int) -> String? {
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count == 0 { return String(decoding: data, as: UTF8.self) }
            if count < 0 { return nil }  // timed out: still open
            data += buffer[0..<count]
        }
    }

    /// Upgrades to a WebSocket on /v1 (RFC 6455 §4.1) and returns whether the server agreed;
    /// what the server sends afterwards is left unread.
    func upgradeToWebSocket(port: Int) -> Bool {
        write("GET /v1 HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
              + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        let status = readStatusLine(timeoutSeconds: 30)  // generous: the full suite loads both cores
        var line = ""
        repeat { line = readStatusLine(timeoutSeconds: 30) } while !line.isEmpty && line != "\r"
        return status.contains(" 101 ")
    }

    /// Sends one masked text frame (RFC 6455 §5.2; clients must mask).
    func sendText(_ text: String) {
        let payload = Array(text.utf8)
        var frame: [UInt8] = [0x81]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else {
            frame.append(0x80 | 126)
            frame += [UInt8(payload.count >> 8), UInt8(payload.count & 0xff)]
        }
        let mask: [UInt8] = [1, 2, 3, 4]
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        _ = frame.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// The first line of the response.
    func readStatusLine(timeoutSeconds: Int) -> String {
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var data = [UInt8]()
        var byte: UInt8 = 0
        while recv(fd, &byte, 1, 0) == 1, byte != UInt8(ascii: "\n") { data.append(byte) }
        return String(decoding: data, as: UTF8.self)
    }
}
