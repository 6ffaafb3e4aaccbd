import Testing
import TernTrace

@Suite("IP address text parsing")
struct IPAddressTests {
    @Test("dotted IPv4 parses to its four octets", arguments: [
        ("192.168.1.20", [192, 168, 1, 20]), ("0.0.0.0", [0, 0, 0, 0]), ("255.255.255.255", [255, 255, 255, 255]),
    ] as [(String, [UInt8])])
    func ipv4(text: String, bytes: [UInt8]) {
        #expect(IPAddress(text)?.bytes == bytes)
        #expect(IPAddress(text)?.isIPv4 == true)
    }

    @Test("IPv6 text forms expand to 16 bytes")
    func ipv6() {
        #expect(IPAddress("::1")?.bytes == [UInt8](repeating: 0, count: 15) + [1])
        #expect(IPAddress("::")?.bytes == [UInt8](repeating: 0, count: 16))
        #expect(IPAddress("2001:db8::8:800:200c:417a")?.bytes
            == [0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0x08, 0x08, 0, 0x20, 0x0c, 0x41, 0x7a])
        #expect(IPAddress("::ffff:10.0.0.1")?.bytes == [UInt8](repeating: 0, count: 10) + [0xff, 0xff, 10, 0, 0, 1])
        #expect(IPAddress("fe80::1%eth0")?.bytes == [0xfe, 0x80] + [UInt8](repeating: 0, count: 13) + [1])
    }

    @Test("IPv6 prints in RFC 5952 canonical form", arguments: [
        ("2001:DB8:0:0:0:0:0:1", "2001:db8::1"), ("::", "::"), ("::1", "::1"), ("1::", "1::"),
        ("2001:db8:0:1:1:1:1:1", "2001:db8:0:1:1:1:1:1"), ("1:0:0:2:0:0:0:3", "1:0:0:2::3"),
        ("1:0:0:2:3:0:0:4", "1::2:3:0:0:4"),
    ])
    func canonical(text: String, expected: String) {
        #expect(IPAddress(text)?.description == expected)
    }

    @Test("non-literals are refused", arguments: [
        "", "1.2.3", "1.2.3.4.5", "256.1.1.1", "1.2.3.-4", "+1.2.3.4", "example.com", "1::2::3", "12345::", ":::",
        "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7", "::g",
    ])
    func invalid(text: String) {
        #expect(IPAddress(text) == nil)
        #expect(throws: PcapError.invalidAddress(text)) { try SocketAddress(host: text, port: 1) }
    }
}
