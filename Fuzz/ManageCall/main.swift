// libFuzzer target: manage-call envelopes (Docs/MANAGE-CALL.md) received on the data channel.
// An envelope that decodes must encode and decode to the same envelope.
// Built only with TERN_FUZZ=1 (see Package.swift and Scripts/fuzz); libFuzzer supplies main().
import TernCall

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if let envelope = try? ManageCallEnvelope.decode(bytes) {
        let again = try? ManageCallEnvelope.decode(envelope.encoded())
        if again != envelope { fatalError("manage-call envelope did not round-trip") }
    }
    return 0
}
