// libFuzzer target: the RTCP compound parser (every packet type) and writer.
// Built only with TERN_FUZZ=1 (see Package.swift and Scripts/fuzz); libFuzzer supplies main().
import TernRTP

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if let packets = try? RTCPPacket.parseCompound(bytes) {
        _ = try? RTCPPacket.parseCompound(RTCPPacket.serialize(packets))
    }
    return 0
}
