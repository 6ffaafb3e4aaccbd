// libFuzzer target: the SCTP association state machine fed sequences of chunks, not single
// packets. Two associations complete a real handshake; each input is then cut into packets
// (at 0xFE 0xFE), each given B's ports and verification tag and a correct checksum so that it
// reaches the chunk handlers, and delivered to B between A's and B's own traffic, with time
// moving on by the packet's first byte in 10 ms steps. Whatever the peer sends, B must not trap.
// Built only with TERN_FUZZ=1 (see Package.swift and Scripts/fuzz); libFuzzer supplies main().
import TernCore
import TernSCTP

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    var configA = SCTPAssociationConfig(), configB = SCTPAssociationConfig()
    configA.randomSeed = 1
    configB.randomSeed = 2
    let a = SCTPAssociation(config: configA), b = SCTPAssociation(config: configB)
    var now = Instant.zero
    var header: [UInt8]?  // the common header of A's packets to B, once established
    func exchange() {
        for _ in 0..<8 {
            var moved = false
            while let packet = a.pollTransmit(now: now) {
                if header == nil, packet.count >= 12 { header = Array(packet[0..<12]) }
                b.handle(packet: packet, now: now)
                moved = true
            }
            while let packet = b.pollTransmit(now: now) { a.handle(packet: packet, now: now); moved = true }
            while a.pollEvent() != nil {}
            while b.pollEvent() != nil {}
            if !moved { break }
        }
    }
    a.connect(now: now)
    exchange()
    try? a.send([1, 2, 3], streamIdentifier: 0, payloadProtocolIdentifier: 51, now: now)
    exchange()
    guard let header else { return 0 }

    var start = 0
    var index = 0
    while start <= bytes.count {
        var end = start
        while end + 1 < bytes.count, !(bytes[end] == 0xFE && bytes[end + 1] == 0xFE) { end += 1 }
        if end + 1 >= bytes.count { end = bytes.count }
        let chunks = Array(bytes[start..<end])
        if let packet = try? SCTPPacket.parse(header + chunks, verifyChecksum: false) {
            now = now + .milliseconds(10 * Int(chunks.first ?? 0))
            b.handle(packet: packet.serialize(), now: now)
            if let due = b.nextTimeout, due <= now { b.handleTimeout(now: now) }
            if let due = a.nextTimeout, due <= now { a.handleTimeout(now: now) }
            exchange()
        }
        start = end + 2
        index += 1
        if index >= 64 { break }
    }
    return 0
}
