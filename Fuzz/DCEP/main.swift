// libFuzzer target: the DCEP (RFC 8832) message parser.
// Built only with TERN_FUZZ=1 (see Package.swift and Scripts/fuzz); libFuzzer supplies main().
import TernSCTP

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if let message = try? DCEPMessage.parse(bytes) {
        _ = try? DCEPMessage.parse(message.serialize())
    }
    return 0
}
