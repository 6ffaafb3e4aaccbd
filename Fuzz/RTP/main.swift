// libFuzzer target: the RTP packet parser and writer, with header extensions.
// Built only with TERN_FUZZ=1 (see Package.swift and Scripts/fuzz); libFuzzer supplies main().
import TernRTP

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    // What parses must serialize to bytes that parse to the same packet.
    if let packet = try? RTPPacket(parsing: bytes) {
        _ = try? packet.headerExtension?.elements()
        guard let again = try? RTPPacket(parsing: packet.bytes) else { fatalError("serialized packet does not parse") }
        if again != packet { fatalError("round trip changed the packet") }
    }
    return 0
}
