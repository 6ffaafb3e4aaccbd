// libFuzzer target: the SDP parser and writer (a description that parses must write and parse again).
// Built only with TERN_FUZZ=1 (see Package.swift and Scripts/fuzz); libFuzzer supplies main().
import TernSDP

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let text = String(decoding: bytes, as: UTF8.self)
    // What parses must write a description that parses again and writes the same text.
    if let description = try? SessionDescription(parsing: text) {
        let written = description.text
        guard let again = try? SessionDescription(parsing: written) else {
            fatalError("the written form of a parsed description does not parse:\n\(written)")
        }
        if again.text != written { fatalError("writing is not stable:\n\(written)\n---\n\(again.text)") }
    }
    return 0
}
