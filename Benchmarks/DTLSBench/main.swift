// DTLS and SRTP figures (release build, run by Scripts/bench; printed, never asserted).
//
// - dtls_handshake_ms: in-process DTLS 1.2 handshake, ECDSA P-256 on both sides, including
//   the SSL_CTX/SSL set-up of both endpoints, datagrams handed across directly (median of 100).
// - srtp_vs_libsrtp_ratio*: SRTP protect + unprotect of a 1200-byte RTP packet through
//   TernDTLS's SRTPSession beside a bare C loop calling libsrtp2 (Benchmarks/CBenchSRTP) with
//   the same key, salt and packet, runs alternated in this process. Both copy the packet first.
import BenchSupport
import CBenchSRTP
import TernDTLS

/// Two endpoints driven to `connected` in-process, datagrams handed across directly.
func connectedPair(client clientCertificate: DTLSCertificate, server serverCertificate: DTLSCertificate) throws
    -> (client: DTLSEndpoint, server: DTLSEndpoint) {
    let client = try DTLSEndpoint(configuration: .init(role: .client, certificate: clientCertificate,
                                                       remoteFingerprints: [serverCertificate.fingerprint()]))
    let server = try DTLSEndpoint(configuration: .init(role: .server, certificate: serverCertificate,
                                                       remoteFingerprints: [clientCertificate.fingerprint()]))
    client.start(now: .zero)
    while client.state != .connected || server.state != .connected {
        var moved = false
        while let datagram = client.pollTransmit() { server.handle(datagram: datagram, now: .zero); moved = true }
        while let datagram = server.pollTransmit() { client.handle(datagram: datagram, now: .zero); moved = true }
        if !moved { fatalError("DTLSBench: handshake stalled (client \(client.state), server \(server.state))") }
    }
    return (client, server)
}

func handshakeMilliseconds(client clientCertificate: DTLSCertificate, server serverCertificate: DTLSCertificate) throws -> Double {
    let start = wallSeconds()
    _ = try connectedPair(client: clientCertificate, server: serverCertificate)
    return (wallSeconds() - start) * 1000
}

let clientCertificate = try DTLSCertificate.generate(.ecdsaP256)
let serverCertificate = try DTLSCertificate.generate(.ecdsaP256)
for _ in 0..<10 { _ = try handshakeMilliseconds(client: clientCertificate, server: serverCertificate) }  // warm-up
let handshakes = try (0..<100).map { _ in try handshakeMilliseconds(client: clientCertificate, server: serverCertificate) }
Figure(name: "dtls_handshake_ms", unit: "ms", samples: handshakes).emit()

/// Protect + unprotect round trips per second through SRTPSession and through bare libsrtp2.
func srtpFigure(name: String, profile: SRTPProtectionProfile, cProfile: Int32) throws {
    let key = (0..<profile.keyLength).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) }
    let salt = (0..<profile.saltLength).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) }
    var template: [UInt8] = [0x80, 96, 0, 0, 0, 0, 0x10, 0, 0x12, 0x34, 0x56, 0x78]
    template += (0..<1188).map { UInt8(truncatingIfNeeded: $0) }
    let outbound = try SRTPSession(profile: profile, key: key, salt: salt, direction: .outbound)
    let inbound = try SRTPSession(profile: profile, key: key, salt: salt, direction: .inbound)
    guard let bare = (key + salt).withUnsafeBufferPointer({ tern_bench_srtp_create(cProfile, $0.baseAddress, $0.count) }) else {
        fatalError("DTLSBench: libsrtp2 session for \(profile) could not be created")
    }
    defer { tern_bench_srtp_destroy(bare) }

    let iterations = choose(full: 100_000, quick: 30_000)
    let runs = choose(full: 9, quick: 5)
    var sequence: UInt32 = 0
    var ternRates: [Double] = [], bareRates: [Double] = []
    var packet: [UInt8] = []
    packet.reserveCapacity(template.count + 256)
    for _ in 0..<runs {
        var ok = 0
        let start = wallSeconds()
        for _ in 0..<iterations {
            // Copy into a buffer that keeps its capacity, as the C loop copies into a static one.
            packet.removeAll(keepingCapacity: true)
            packet.append(contentsOf: template)
            packet[2] = UInt8(truncatingIfNeeded: sequence >> 8)
            packet[3] = UInt8(truncatingIfNeeded: sequence)
            sequence &+= 1
            if outbound.protectRTP(&packet) == .ok, inbound.unprotectRTP(&packet) == .ok, packet.count == template.count { ok += 1 }
        }
        let ternSeconds = wallSeconds() - start
        let bareStart = wallSeconds()
        let bareOK = template.withUnsafeBufferPointer { tern_bench_srtp_round_trips(bare, $0.baseAddress, $0.count, iterations) }
        let bareSeconds = wallSeconds() - bareStart
        guard ok == iterations, bareOK == iterations else {
            fatalError("DTLSBench: \(profile) round trips failed (Tern \(ok), libsrtp \(bareOK) of \(iterations))")
        }
        ternRates.append(Double(iterations) / ternSeconds / 1000)
        bareRates.append(Double(iterations) / bareSeconds / 1000)
    }
    Figure(name: name, unit: "kpkt/s", samples: ternRates, peer: "bare libsrtp2 C loop", peerSamples: bareRates).emit()
}

try srtpFigure(name: "srtp_vs_libsrtp_ratio", profile: .aeadAes128Gcm, cProfile: Int32(TERN_BENCH_AEAD_AES_128_GCM))
try srtpFigure(name: "srtp_vs_libsrtp_ratio_aes_cm_sha1_80", profile: .aes128CmSha1_80, cProfile: Int32(TERN_BENCH_AES128_CM_SHA1_80))

/// DTLS application-data throughput (the path SCTP rides on, RFC 8261): records of
/// `maximumApplicationDataSize` bytes encrypted by one endpoint and decrypted by the other,
/// in-process, MB/s of payload.
func applicationDataFigure() throws {
    let (client, server) = try connectedPair(client: clientCertificate, server: serverCertificate)
    while client.pollEvent() != nil {}
    while server.pollEvent() != nil {}
    let record = [UInt8](repeating: 0x5A, count: client.maximumApplicationDataSize ?? 1100)
    let records = choose(full: 100_000, quick: 30_000)
    var rates: [Double] = []
    for _ in 0..<choose(full: 7, quick: 3) {
        var received = 0
        let start = wallSeconds()
        for _ in 0..<records {
            try client.send(applicationData: record)
            while let datagram = client.pollTransmit() { server.handle(datagram: datagram, now: .zero) }
            while let event = server.pollEvent() {
                if case let .applicationData(bytes) = event { received += bytes.count }
            }
        }
        let seconds = wallSeconds() - start
        guard received == records * record.count else { fatalError("DTLSBench: \(received) bytes decrypted of \(records * record.count)") }
        rates.append(Double(received) / seconds / 1_000_000)
    }
    Figure(name: "dtls_appdata_MBps", unit: "MB/s", samples: rates).emit()
}

try applicationDataFigure()
