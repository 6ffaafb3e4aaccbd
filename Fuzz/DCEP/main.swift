// libFuzzer target: the DCEP (RFC 8832) message parser.
// Built only with TERN_FUZZ=1 (see Package.swift and Scripts/fuzz); libFuzzer supplies main().
import TernSCTP

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    // What parses must serialize to a message that parses to the same message.
    if let message = try? DCEPMessage.parse(bytes) {
        guard let again = try? DCEPMessage.parse(message.serialize()) else { fatalError("serialized message does not parse") }
        if again != message { fatalError("round trip changed the message") }
    }
    return 0
}
