import Testing
@testable import TernICE
import TernSDP

/// The candidate ICE reads and writes is TernSDP's `ICECandidate` (RFC 8839 grammar, tested
/// in TernSDPTests); these check what ICE adds: types it knows, and the line libnice is given.
@Suite struct ICECandidateTests {
    @Test(arguments: [
        ("candidate:1 1 UDP 2013266431 127.0.0.1 45000 typ host", ICECandidateType.host, "127.0.0.1", UInt16(45000)),
        ("a=candidate:2 1 udp 1677721855 203.0.113.7 61000 typ srflx raddr 10.0.0.2 rport 45000",
         .srflx, "203.0.113.7", 61000),
        ("candidate:3 1 UDP 16777215 198.51.100.1 50000 typ relay raddr 203.0.113.7 rport 61000 generation 0",
         .relay, "198.51.100.1", 50000),
        ("candidate:4 1 TCP 1015021823 ::1 9 typ host tcptype active", .host, "::1", 9),
        ("candidate:5 1 udp 2122260223 4f1f6c0e-5e3a-4f0b-9c55-6d1b3e0d9a11.local 52000 typ host",
         .host, "4f1f6c0e-5e3a-4f0b-9c55-6d1b3e0d9a11.local", 52000),
    ])
    func parsesRealWorldCandidateLines(line: String, type: ICECandidateType, address: String, port: UInt16) throws {
        let c = try ICECandidate(agentLine: line)
        #expect(c.candidateType == type)
        #expect(c.address == address)
        #expect(c.portNumber == port)
        #expect(c.component == 1)
        // The line libnice gets parses back to the same fields (browser-only extensions dropped).
        let again = try ICECandidate(agentLine: c.agentLine)
        #expect(again.candidateType == c.candidateType && again.transportProtocol == c.transportProtocol)
        #expect(again.address == c.address && again.port == c.port && again.priority == c.priority)
        #expect(again.relatedAddress == c.relatedAddress && again.relatedPort == c.relatedPort && again.tcpType == c.tcpType)
        #expect(again.generation == nil)
    }

    @Test func keepsRelatedAddressAndTCPType() throws {
        let c = try ICECandidate(agentLine: "candidate:9 1 TCP 1 10.0.0.1 9 typ srflx raddr 192.168.1.2 rport 4000 tcptype passive")
        #expect(c.relatedAddress == "192.168.1.2")
        #expect(c.relatedPort == 4000)
        #expect(c.tcpType == "passive")
        #expect(c.transportProtocol == .tcp)
        #expect(c.agentLine == "candidate:9 1 TCP 1 10.0.0.1 9 typ srflx raddr 192.168.1.2 rport 4000 tcptype passive")
    }

    @Test func detectsMDNSNames() throws {
        #expect(try ICECandidate(agentLine: "candidate:1 1 udp 1 abc.local 1 typ host").isMDNS)
        #expect(!(try ICECandidate(agentLine: "candidate:1 1 udp 1 10.0.0.1 1 typ host").isMDNS))
    }

    @Test(arguments: [
        "",
        "candidate:",
        "candidate:1 1 UDP 2013266431 127.0.0.1 45000 host",
        "candidate:1 x UDP 1 127.0.0.1 1 typ host",
        "candidate:1 1 SCTP 1 127.0.0.1 1 typ host",
        "candidate:1 1 UDP 99999999999 127.0.0.1 1 typ host",
        "candidate:1 1 UDP 1 127.0.0.1 70000 typ host",
        "candidate:1 1 UDP 1 127.0.0.1 1 typ banana",
        "candidate:1 1 UDP 1 127.0.0.1 1 typ srflx raddr 1.2.3.4 rport notaport",
    ])
    func rejectsMalformedLinesWithAReason(line: String) {
        #expect(throws: ICEError.self) { try ICECandidate(agentLine: line) }
    }
}

@Suite struct ICEServerTests {
    @Test func parsesStunAndTurnURLs() throws {
        let stun = try ICEServer(url: "stun:127.0.0.1:3478")
        #expect(stun.kind == .stun && stun.host == "127.0.0.1" && stun.port == 3478)
        let turn = try ICEServer(url: "turn:example.org?transport=tcp", username: "u", credential: "p")
        #expect(turn.kind == .turnTCP && turn.port == 3478)
        let turns = try ICEServer(url: "turns:[::1]:5350", username: "u", credential: "p")
        #expect(turns.kind == .turnTLS && turns.host == "::1" && turns.port == 5350)
        let udp = try ICEServer(url: "turn:10.0.0.1:3479?transport=udp", username: "u", credential: "p")
        #expect(udp.kind == .turnUDP && udp.port == 3479)
    }

    @Test(arguments: ["127.0.0.1", "http://x", "turn:host:0", "stun:", "turn:host:1"])
    func rejectsBadURLs(url: String) {
        #expect(throws: ICEError.self) { try ICEServer(url: url) }
    }
}

@Suite struct ICEServerInlineCredentialsTests {
    @Test func parsesCommandLineTurnURLs() throws {
        let s = try ICEServer(inlineCredentialsURL: "turn:alice:s3cr:et@10.0.0.1:3479?transport=tcp")
        #expect(s.kind == .turnTCP && s.host == "10.0.0.1" && s.port == 3479)
        #expect(s.username == "alice" && s.credential == "s3cr:et")
        let plain = try ICEServer(inlineCredentialsURL: "stun:10.0.0.1")
        #expect(plain.kind == .stun && plain.port == 3478)
        #expect(throws: ICEError.self) { try ICEServer(inlineCredentialsURL: "turn:nopass@10.0.0.1") }
    }
}
