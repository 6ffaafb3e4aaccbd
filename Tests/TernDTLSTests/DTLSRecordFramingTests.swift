import Testing
@testable import TernDTLS
import TernCore

@Suite struct DTLSRecordFramingTests {
    static let fromClient = DTLSRole.client
    static let fromServer = DTLSRole.server

    /// A record header: type, DTLS 1.2, epoch, sequence 0, length.
    static func record(_ type: UInt8, epoch: UInt8 = 0, _ body: [UInt8]) -> [UInt8] {
        [type, 0xFE, 0xFD, 0, epoch, 0, 0, 0, 0, 0, 0, UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body
    }

    /// A handshake fragment: type, total length, message_seq 0, offset, fragment.
    static func fragment(_ type: UInt8, total: Int, offset: Int = 0, _ bytes: [UInt8]) -> [UInt8] {
        func u24(_ v: Int) -> [UInt8] { [UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        return [type] + u24(total) + [0, 0] + u24(offset) + u24(bytes.count) + bytes
    }

    @Test func acceptsWhatCorrectPeersSend() {
        let hello = Self.fragment(1, total: 4, [0xFE, 0xFD, 0, 0])
        #expect(DTLSRecordFraming.isWellFormed(Self.record(22, hello), from: Self.fromClient))
        // Several records per datagram, two fragments per record, CCS, then an encrypted epoch-1 record.
        let flight = Self.record(22, Self.fragment(11, total: 10, Array(repeating: 0, count: 4))
            + Self.fragment(11, total: 10, offset: 4, Array(repeating: 0, count: 6)))
            + Self.record(20, [1]) + Self.record(22, epoch: 1, Array(repeating: 0xAA, count: 40))
        #expect(DTLSRecordFraming.isWellFormed(flight, from: Self.fromClient))
        #expect(DTLSRecordFraming.isWellFormed(Self.record(21, [2, 42]), from: Self.fromServer))
        #expect(DTLSRecordFraming.isWellFormed(Self.record(23, epoch: 1, [1, 2, 3]), from: Self.fromServer))
    }

    @Test func rejectsWhatNoCorrectPeerSends() {
        let hello = Self.fragment(1, total: 4, [0xFE, 0xFD, 0, 0])
        let cases: [([UInt8], DTLSRole, String)] = [
            ([], Self.fromClient, "empty"),
            (Array(Self.record(22, hello).dropLast()), Self.fromClient, "truncated record"),
            (Array(Self.record(22, hello).prefix(10)), Self.fromClient, "truncated header"),
            ([22, 0x03, 0x03] + Self.record(22, hello).dropFirst(3), Self.fromClient, "TLS, not DTLS, version"),
            (Self.record(30, [1]), Self.fromClient, "unknown content type"),
            (Self.record(22, hello), Self.fromServer, "ClientHello from a server"),
            (Self.record(22, Self.fragment(14, total: 0, [])), Self.fromClient, "ServerHelloDone from a client"),
            (Self.record(22, Self.fragment(1, total: 4, [0x03, 0x03, 0, 0])), Self.fromClient, "hello with a TLS version"),
            (Self.record(22, Self.fragment(11, total: 3, [0, 0, 0, 0])), Self.fromClient, "fragment past its message"),
            (Self.record(22, Array(hello.dropLast())), Self.fromClient, "fragment past its record"),
            (Self.record(20, [2]), Self.fromClient, "ChangeCipherSpec other than 1"),
            (Self.record(21, [3, 0]), Self.fromClient, "alert level 3"),
            (Self.record(23, [1, 2, 3]), Self.fromClient, "application data in epoch 0"),
        ]
        for (datagram, sender, name) in cases {
            #expect(!DTLSRecordFraming.isWellFormed(datagram, from: sender), "\(name)")
        }
    }
}
