// libFuzzer target: the RTCP compound parser (every packet type) and writer.
// Built only with TERN_FUZZ=1 (see Package.swift and Scripts/fuzz); libFuzzer supplies main().
import TernRTP

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    // What parses must serialize to a compound that parses to the same packets.
    if let packets = try? RTCPPacket.parseCompound(bytes) {
        guard let again = try? RTCPPacket.parseCompound(RTCPPacket.serialize(packets)) else {
            fatalError("serialized compound does not parse")
        }
        if again != packets { fatalError("round trip changed the packets") }
    }
    return 0
}
