import Testing
import TernSDP

@Suite("ICE candidate lines (RFC 8839 §5.1)")
struct CandidateTests {
    @Test("host, srflx, relay and tcp candidates from real implementations", arguments: [
        "candidate:842163049 1 udp 1677729535 203.0.113.7 46154 typ srflx raddr 192.168.1.5 rport 46154 generation 0 ufrag EsAw network-id 1 network-cost 10",
        "candidate:0 1 UDP 2122252543 10.0.0.1 63001 typ host",
        "candidate:2 1 TCP 2105524479 10.0.0.1 9 typ host tcptype active",
        "candidate:3 1 udp 8265471 198.51.100.9 3478 typ relay raddr 0.0.0.0 rport 0",
        "candidate:1 1 udp 2122262783 3c1a5d07-0b8b-4a6b-9a47-5e9a3c2a1f6e.local 54321 typ host generation 0",
        "candidate:f957a2332b1715da3b0ef8ba684454eb 1 udp 2130706431 fd00::2 41510 typ host",
        "candidate:4 2 udp 100 10.0.0.2 5000 typ prflx x-custom hello another 42",
    ])
    func roundTrip(text: String) throws {
        let candidate = try ICECandidate(parsing: text)
        #expect(candidate.candidateString == text)
        #expect(try ICECandidate(parsing: "a=" + text) == candidate)
        #expect(try ICECandidate(attributeValue: Substring(text.dropFirst("candidate:".count))) == candidate)
    }

    @Test("typed fields including Chromium extensions")
    func fields() throws {
        let c = try ICECandidate(parsing: "a=candidate:842163049 1 udp 1677729535 203.0.113.7 46154 typ srflx raddr 192.168.1.5 rport 46155 generation 2 ufrag EsAw network-id 3 network-cost 50 x-unknown kept")
        #expect(c.foundation == "842163049")
        #expect(c.component == 1)
        #expect(c.isUDP)
        #expect(c.priority == 1_677_729_535)
        #expect(c.address == "203.0.113.7")
        #expect(c.port == 46154)
        #expect(c.type == "srflx")
        #expect(c.relatedAddress == "192.168.1.5")
        #expect(c.relatedPort == 46155)
        #expect(c.generation == 2)
        #expect(c.ufrag == "EsAw")
        #expect(c.networkId == 3)
        #expect(c.networkCost == 50)
        #expect(c.extensionValue("x-unknown") == "kept")
        #expect(c.tcpType == nil)
        let tcp = try ICECandidate(parsing: "candidate:2 1 TCP 2105524479 10.0.0.1 9 typ host tcptype passive")
        #expect(tcp.tcpType == "passive")
        #expect(!tcp.isUDP)
    }

    @Test("malformed candidates are refused with a reason", arguments: [
        ("candidate:1 1 udp 1 1.2.3.4 9 typ", "expected `<foundation> <component> <transport> <priority> <address> <port> typ <type>`"),
        ("candidate:1 x udp 1 1.2.3.4 9 typ host", "component id is not a number"),
        ("candidate:1 1 udp 99999999999 1.2.3.4 9 typ host", "priority is not a 32-bit number"),
        ("candidate:1 1 udp 1 1.2.3.4 9 typ srflx raddr", "extension attribute `raddr` has no value"),
        ("candidate:1 1 udp 1 1.2.3.4 9 typ srflx raddr 1.1.1.1 rport x", "rport is not a number between 0 and 65535"),
    ])
    func malformed(text: String, reason: String) {
        #expect(throws: SDPValueError(reason)) { try ICECandidate(parsing: text) }
    }

    @Test("ICECandidateInit carries mid/index and an empty candidate means end-of-candidates")
    func candidateInit() throws {
        let c = try ICECandidate(parsing: "candidate:0 1 UDP 2122252543 10.0.0.1 63001 typ host")
        let initValue = ICECandidateInit(c, sdpMid: "0", sdpMLineIndex: 0, usernameFragment: "abcd")
        #expect(initValue.candidate == "candidate:0 1 UDP 2122252543 10.0.0.1 63001 typ host")
        #expect(try initValue.parsed() == c)
        #expect(!initValue.isEndOfCandidates)
        let end = ICECandidateInit(candidate: "", sdpMid: "0")
        #expect(end.isEndOfCandidates)
        #expect(try end.parsed() == nil)
    }
}
