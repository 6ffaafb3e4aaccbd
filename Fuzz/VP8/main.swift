// libFuzzer target: the RFC 7741 payload descriptor parser and the VP8 depacketizer.
// Built only with TERN_FUZZ=1 (see Package.swift and Scripts/fuzz); libFuzzer supplies main().
import TernMedia

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    _ = try? VP8PayloadDescriptor.parse(bytes)
    var depacketizer = VP8Depacketizer()
    var offset = 0
    var sequence: UInt16 = 0
    // Split the input into up to 8 payloads so reassembly paths are reached too.
    while offset < bytes.count {
        let length = min(bytes.count - offset, Int(bytes[offset]) + 1)
        let unit = RTPPayloadUnit(payload: Array(bytes[offset..<(offset + length)]), marker: offset + length >= bytes.count,
                                  timestamp: 3000, sequenceNumber: sequence)
        _ = try? depacketizer.push(unit)
        offset += length
        sequence &+= 1
    }
    return 0
}
