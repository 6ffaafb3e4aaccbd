import Foundation
import Synchronization

/// A STUN Binding responder on 127.0.0.1 that answers as if a NAT sat in front of the
/// client: the mapped address is always `mapped` (XOR-MAPPED-ADDRESS + FINGERPRINT for
/// RFC 8489 requests, MAPPED-ADDRESS for RFC 3489 ones). On plain loopback a real server reports the host address itself, which libnice
/// rightly folds away (RFC 8445 §5.1.3), so this is how a test sees a server-reflexive candidate.
final class FakeSTUNServer: @unchecked Sendable {
    // `port` is set once; the socket belongs to the responder thread; `flags` is atomic.
    let port: UInt16
    private let flags = Flags()
    var requests: Int { flags.requests.load(ordering: .relaxed) }

    private final class Flags: Sendable {
        let running = Atomic(true)
        let requests = Atomic(0)
    }

    init(mapped: (ip: [UInt8], port: UInt16)) throws {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw FakeResponderError.bindFailed }
        port = UInt16(bigEndian: addr.sin_port)
        let flags = self.flags
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 1500)
            while flags.running.load(ordering: .relaxed) {
                var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&pfd, 1, 50) > 0 else { continue }
                var from = sockaddr_storage()
                var fromLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
                let n = withUnsafeMutablePointer(to: &from) { p in
                    p.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(fd, &buffer, buffer.count, 0, $0, &fromLength) }
                }
                guard n >= 20, buffer[0] == 0x00, buffer[1] == 0x01 else { continue }
                flags.requests.add(1, ordering: .relaxed)
                // libnice (RFC 5245 mode) sends RFC 3489 requests to the STUN server: no magic
                // cookie, a 16-byte transaction ID, answered with plain MAPPED-ADDRESS.
                let response = buffer[4...7].elementsEqual([0x21, 0x12, 0xA4, 0x42])
                    ? Self.bindingSuccess(transactionID: Array(buffer[8..<20]), mapped: mapped)
                    : Self.classicBindingSuccess(transactionID: Array(buffer[4..<20]), mapped: mapped)
                _ = withUnsafePointer(to: &from) { p in
                    p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(fd, response, response.count, 0, $0, fromLength) }
                }
            }
            close(fd)
        }
    }

    func stop() { flags.running.store(false, ordering: .relaxed) }
    deinit { stop() }

    static func bindingSuccess(transactionID: [UInt8], mapped: (ip: [UInt8], port: UInt16)) -> [UInt8] {
        let cookie: [UInt8] = [0x21, 0x12, 0xA4, 0x42]
        let xport = mapped.port ^ 0x2112
        var xorMapped: [UInt8] = [0x00, 0x20, 0x00, 0x08, 0x00, 0x01, UInt8(xport >> 8), UInt8(xport & 0xFF)]
        xorMapped += zip(mapped.ip, cookie).map { $0 ^ $1 }
        // Length counts the attributes after the header, including the 8-byte FINGERPRINT.
        let bodyLength = UInt16(xorMapped.count + 8)
        var message: [UInt8] = [0x01, 0x01, UInt8(bodyLength >> 8), UInt8(bodyLength & 0xFF)] + cookie + transactionID
        message += xorMapped
        let fingerprint = crc32(message) ^ 0x5354_554E
        message += [0x80, 0x28, 0x00, 0x04,
                    UInt8(fingerprint >> 24), UInt8((fingerprint >> 16) & 0xFF),
                    UInt8((fingerprint >> 8) & 0xFF), UInt8(fingerprint & 0xFF)]
        return message
    }

    /// RFC 3489 §11.2.1 Binding Response with MAPPED-ADDRESS.
    static func classicBindingSuccess(transactionID: [UInt8], mapped: (ip: [UInt8], port: UInt16)) -> [UInt8] {
        let attribute: [UInt8] = [0x00, 0x01, 0x00, 0x08, 0x00, 0x01, UInt8(mapped.port >> 8), UInt8(mapped.port & 0xFF)] + mapped.ip
        return [0x01, 0x01, 0x00, UInt8(attribute.count)] + transactionID + attribute
    }

    /// CRC-32 (ISO 3309 / ITU-T V.42), as FINGERPRINT requires.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
        }
        return ~crc
    }
}
