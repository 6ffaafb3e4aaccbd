// libFuzzer target: the DTLS client role and post-handshake records. The first byte picks the
// phase: a client that has sent its ClientHello takes the rest as the server's flights; or a
// client that completed a real handshake with a Tern server takes it as records after the
// handshake (application data, alerts, a new handshake the client must refuse). The input is
// cut into up to eight datagrams at 0xFF bytes. Malformed input must be counted and dropped.
// Built only with TERN_FUZZ=1 (see Package.swift and Scripts/fuzz); libFuzzer supplies main().
import TernCore
import TernDTLS

nonisolated(unsafe) let clientCertificate = try? DTLSCertificate.generate()
nonisolated(unsafe) let serverCertificate = try? DTLSCertificate.generate()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    guard let mode = bytes.first, let clientCertificate, let serverCertificate else { return 0 }
    guard let client = try? DTLSEndpoint(configuration: DTLSConfiguration(
        role: .client, certificate: clientCertificate, remoteFingerprints: [serverCertificate.fingerprint(.sha256)])) else { return 0 }
    client.start(now: .zero)
    if mode & 1 == 1 {
        guard let server = try? DTLSEndpoint(configuration: DTLSConfiguration(
            role: .server, certificate: serverCertificate, remoteFingerprints: [clientCertificate.fingerprint(.sha256)])) else { return 0 }
        server.start(now: .zero)
        for _ in 0..<20 where client.state != .connected {
            while let datagram = client.pollTransmit() { server.handle(datagram: datagram, now: .zero) }
            while let datagram = server.pollTransmit() { client.handle(datagram: datagram, now: .zero) }
        }
        // The reference handshake runs on OpenSSL's own wall-clock retransmission timer (as in
        // production). Once in 26,000 runs of a 600 s run it did not complete, with the fuzzer at
        // nice 19 beside a build (not reproducible with the input alone; a flight held past the
        // first timeout completes: DTLSWallClockRetransmissionTests): such an input is skipped
        // rather than reported as a finding in the code under test.
        guard client.state == .connected else { return 0 }
    }
    while client.pollTransmit() != nil {}
    var now = Instant.zero
    for datagram in bytes.dropFirst().split(separator: 0xFF, maxSplits: 7, omittingEmptySubsequences: true) {
        client.handle(datagram: Array(datagram), now: now)
        now = now + .milliseconds(150)
        client.handleTimeout(now: now)
        while client.pollTransmit() != nil {}
        while client.pollEvent() != nil {}
    }
    return 0
}
