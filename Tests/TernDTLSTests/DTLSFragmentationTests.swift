import Testing
import TernCore
@testable import TernDTLS
import TernTestSupport

/// Handshake messages larger than the MTU travel as several fragments (RFC 6347 §4.2.3).
@Suite struct DTLSFragmentationTests {
    /// Handshake fragments in a datagram: (message type, fragment offset, fragment length).
    static func handshakeFragments(_ datagram: [UInt8]) -> [(type: UInt8, offset: Int, length: Int)] {
        var out: [(UInt8, Int, Int)] = []
        var index = 0
        while index + 13 <= datagram.count {
            let length = Int(datagram[index + 11]) << 8 | Int(datagram[index + 12])
            let body = index + 13
            if datagram[index] == 22, datagram[index + 4] == 0, body + 12 <= datagram.count {
                let offset = Int(datagram[body + 6]) << 16 | Int(datagram[body + 7]) << 8 | Int(datagram[body + 8])
                let fragment = Int(datagram[body + 9]) << 16 | Int(datagram[body + 10]) << 8 | Int(datagram[body + 11])
                out.append((datagram[body], offset, fragment))
            }
            index = body + length
        }
        return out
    }

    @Test func fragmentedClientHelloIsReassembledByTheServer() throws {
        // OpenSSL's own ClientHello fits one datagram even at the minimum MTU, so the test splits
        // it the way a stack with a larger ClientHello would: two fragments in two datagrams,
        // delivered second-first. Later epoch-0 record numbers shift by one so none repeats
        // (epoch 0 carries no MAC over the record header).
        let harness = try DTLSTestHarness.make()
        let splitter = ClientHelloSplitter()
        harness.clientRewrite = { splitter.rewrite($0) }
        #expect(harness.handshake())
        #expect(splitter.splits == 1)
        #expect(harness.client.statistics.retransmissionTimeouts == 0, "the split ClientHello was accepted first time")
        #expect(harness.clientKeying == harness.serverKeying)
    }

    @Test(.enabled(if: DTLSEndpoint.callerClockRetransmissionAvailable))
    func rsaCertificateFlightIsFragmentedAndSurvivesLoss() throws {
        let clientCert = try Certificates.shared(.ecdsaP256)
        let serverCert = try Certificates.shared(.rsa(bits: 2048))
        let client = try DTLSEndpoint(configuration: .virtualTime(
            role: .client, certificate: clientCert, remoteFingerprints: [serverCert.fingerprint()]))
        let server = try DTLSEndpoint(configuration: .virtualTime(
            role: .server, certificate: serverCert, remoteFingerprints: [clientCert.fingerprint()],
            maximumDatagramSize: 400))
        let conditions = SimulatedLink.Conditions(lossRate: 0.3, duplicateRate: 0.1, delay: .milliseconds(10),
                                                  jitter: .milliseconds(30))
        let harness = DTLSTestHarness(client: client, server: server, conditions: conditions, seed: 11)
        #expect(harness.handshake(limit: .seconds(300)))
        let certificateFragments = harness.serverSent.flatMap(Self.handshakeFragments).filter { $0.type == 11 }
        #expect(certificateFragments.contains { $0.offset > 0 })
        #expect(harness.serverSent.allSatisfy { $0.count <= 400 })
    }
}

/// Splits every ClientHello into two fragments (RFC 6347 §4.2.3) and renumbers epoch-0 records.
final class ClientHelloSplitter {
    private(set) var splits = 0

    func rewrite(_ datagram: [UInt8]) -> [[UInt8]] {
        var output: [[UInt8]] = []
        var current: [UInt8] = []
        var index = 0
        while index + 13 <= datagram.count {
            let length = Int(datagram[index + 11]) << 8 | Int(datagram[index + 12])
            var header = Array(datagram[index..<index + 13])
            let body = Array(datagram[index + 13..<min(datagram.count, index + 13 + length)])
            index += 13 + length
            let epochZero = header[3] == 0 && header[4] == 0
            guard epochZero else {
                current += header + body
                continue
            }
            setSequence(&header, sequence(header) + UInt64(splits))
            guard header[0] == 22, body.count > 12 + 40, body[0] == 1 else {
                current += header + body
                continue
            }
            // ClientHello: msg_type(1) length(3) message_seq(2) fragment_offset(3) fragment_length(3) body.
            let hello = Array(body[12...])
            let half = hello.count / 2
            let first = fragment(of: body, offset: 0, bytes: Array(hello[..<half]))
            let second = fragment(of: body, offset: half, bytes: Array(hello[half...]))
            var secondHeader = header
            setSequence(&secondHeader, sequence(header) + 1)
            splits += 1
            // Second fragment first: the server must buffer and reassemble.
            output.append(record(secondHeader, second))
            output.append(record(header, first))
        }
        if !current.isEmpty { output.append(current) }
        return output
    }

    private func fragment(of message: [UInt8], offset: Int, bytes: [UInt8]) -> [UInt8] {
        var out = Array(message[0..<6])
        out += [UInt8(offset >> 16 & 0xFF), UInt8(offset >> 8 & 0xFF), UInt8(offset & 0xFF)]
        out += [UInt8(bytes.count >> 16 & 0xFF), UInt8(bytes.count >> 8 & 0xFF), UInt8(bytes.count & 0xFF)]
        return out + bytes
    }

    private func record(_ header: [UInt8], _ body: [UInt8]) -> [UInt8] {
        var header = header
        header[11] = UInt8(body.count >> 8)
        header[12] = UInt8(body.count & 0xFF)
        return header + body
    }

    private func sequence(_ header: [UInt8]) -> UInt64 {
        header[5..<11].reduce(0) { $0 << 8 | UInt64($1) }
    }

    private func setSequence(_ header: inout [UInt8], _ value: UInt64) {
        for i in 0..<6 { header[10 - i] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(i))) }
    }
}

@Suite struct DTLSRetransmissionPackingTests {
    @Test func aRetransmittedFlightTravelsInOneDatagramLikeTheFirst() throws {
        // OpenSSL retransmits a flight one handshake message per write; the endpoint packs them
        // back into one datagram, so a retransmission is lost only as a whole, like the original.
        let harness = try DTLSTestHarness.make()
        harness.client.start(now: harness.now)
        harness.server.start(now: harness.now)
        let clientHello = try #require(harness.client.pollTransmit())
        harness.server.handle(datagram: clientHello, now: harness.now)
        var first: [[UInt8]] = []
        while let datagram = harness.server.pollTransmit() { first.append(datagram) }  // "lost"
        let deadline = try #require(harness.server.nextTimeout)
        harness.server.handleTimeout(now: deadline)
        var again: [[UInt8]] = []
        while let datagram = harness.server.pollTransmit() { again.append(datagram) }
        let types = { (datagrams: [[UInt8]]) in datagrams.flatMap { DTLSFragmentationTests.handshakeFragments($0).map(\.type) } }
        #expect(first.count == 1)
        #expect(again.count == 1, "retransmission: \(again.map(\.count)) bytes per datagram")
        #expect(types(again) == types(first))
        #expect(types(first) == [2, 11, 12, 13, 14], "ServerHello, Certificate, ServerKeyExchange, CertificateRequest, ServerHelloDone")
        #expect(again[0].count <= 1200)
    }
}
