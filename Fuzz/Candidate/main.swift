// libFuzzer target: the ICE candidate line parser (RFC 8839 grammar).
// Built only with TERN_FUZZ=1 (see Package.swift and Scripts/fuzz); libFuzzer supplies main().
import TernSDP

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let text = String(decoding: bytes, as: UTF8.self)
    // What parses must write a line that parses to the same candidate.
    if let candidate = try? ICECandidate(parsing: text) {
        let written = candidate.candidateString
        guard let again = try? ICECandidate(parsing: written) else { fatalError("written candidate does not parse: \(written)") }
        if again.candidateString != written { fatalError("writing is not stable: \(written) / \(again.candidateString)") }
    }
    return 0
}
