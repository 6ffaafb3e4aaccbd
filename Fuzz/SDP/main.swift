// libFuzzer target: the SDP parser and writer (a description that parses must write and parse again).
// Built only with TERN_FUZZ=1 (see Package.swift and Scripts/fuzz); libFuzzer supplies main().
import TernSDP

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let text = String(decoding: bytes, as: UTF8.self)
    if let description = try? SessionDescription(parsing: text) {
        _ = try? SessionDescription(parsing: description.text)
    }
    return 0
}
