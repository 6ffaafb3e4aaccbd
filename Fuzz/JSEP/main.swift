// libFuzzer target: JSEP applying hostile descriptions. The first byte picks the role: an
// answerer applies the rest as a remote offer (then creates and applies its answer), or an
// offerer with audio, video and data applies it as the remote answer to its own offer.
// A refused description must be a thrown JSEPError, never a trap.
// Built only with TERN_FUZZ=1 (see Package.swift and Scripts/fuzz); libFuzzer supplies main().
import TernCore
import TernSDP

let fingerprint: Fingerprint? = Fingerprint(algorithm: "sha-256", bytes: [UInt8](repeating: 0xAB, count: 32))

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    guard let mode = bytes.first, let fingerprint else { return 0 }
    let text = String(decoding: bytes.dropFirst(), as: UTF8.self)
    var session = JSEPSession(configuration: JSEPConfiguration(fingerprints: [fingerprint]), random: SeededRandom(seed: 7))
    if mode & 1 == 0 {
        guard (try? session.setRemoteDescription(JSEPDescription(type: .offer, sdp: text))) != nil else { return 0 }
        if let answer = try? session.createAnswer() { _ = try? session.setLocalDescription(answer) }
    } else {
        _ = try? session.addTransceiver(Transceiver(kind: .audio))
        _ = try? session.addTransceiver(Transceiver(kind: .video))
        _ = try? session.addDataChannel()
        guard let offer = try? session.createOffer(), (try? session.setLocalDescription(offer)) != nil else { return 0 }
        _ = try? session.setRemoteDescription(JSEPDescription(type: mode & 2 == 0 ? .answer : .pranswer, sdp: text))
    }
    return 0
}
