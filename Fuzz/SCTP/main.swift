// libFuzzer target: the SCTP packet and chunk parser (checksum not required, so chunks are reached),
// and the INIT chunk a description's a=sctp-init carries (SNAP).
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
    // The same bytes as an INIT chunk from a description's a=sctp-init (SNAP): what reads must
    // write back to an INIT that reads the same.
    if let chunk = try? InitChunk(serializedChunk: bytes) {
        guard let again = try? InitChunk(serializedChunk: chunk.serializedChunk) else {
            fatalError("serialized a=sctp-init INIT does not parse")
        }
        if again != chunk { fatalError("round trip changed the a=sctp-init INIT") }
    }
    return 0
}
