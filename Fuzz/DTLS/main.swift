// libFuzzer target: the RFC 7983 demultiplexer and the DTLS input path of a server endpoint
// (malformed datagrams must be counted and dropped, never crash).
// Built only with TERN_FUZZ=1 (see Package.swift and Scripts/fuzz); libFuzzer supplies main().
import TernCore
import TernDTLS

nonisolated(unsafe) let certificate = try? DTLSCertificate.generate()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    _ = DemultiplexedPacket(classifying: bytes)
    guard let certificate else { return 0 }
    let fingerprint = certificate.fingerprint(.sha256)
    let configuration = DTLSConfiguration(role: .server, certificate: certificate, remoteFingerprints: [fingerprint])
    guard let endpoint = try? DTLSEndpoint(configuration: configuration) else { return 0 }
    endpoint.start(now: .zero)
    // The input as up to four datagrams, split at bytes 0xFF, so multi-flight paths are reached.
    for datagram in bytes.split(separator: 0xFF, maxSplits: 3, omittingEmptySubsequences: true) {
        endpoint.handle(datagram: Array(datagram), now: .zero)
        while endpoint.pollTransmit() != nil {}
        while endpoint.pollEvent() != nil {}
    }
    return 0
}
