// libFuzzer target: the SCTP packet and chunk parser (checksum not required, so chunks are reached).
// Built only with TERN_FUZZ=1 (see Package.swift and Scripts/fuzz); libFuzzer supplies main().
import TernSCTP

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    // What parses must serialize and parse again (its checksum now correct) to the same packet.
    if let packet = try? SCTPPacket.parse(bytes, verifyChecksum: false) {
        guard let again = try? SCTPPacket.parse(packet.serialize(), verifyChecksum: true) else {
            fatalError("serialized packet does not parse")
        }
        if again != packet { fatalError("round trip changed the packet") }
    }
    return 0
}
