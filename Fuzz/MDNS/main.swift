// libFuzzer target: the mDNS response parser that reads the answer to Tern's one-shot query for
// a peer's `<uuid>.local` candidate (any host on the link may answer), and the question parser.
// Built only with TERN_FUZZ=1 (see Package.swift and Scripts/fuzz); libFuzzer supplies main().
@testable import TernICE

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    _ = MDNSMessage.address(for: "1f4c3a5e-9b2d-4c7e-8f00-123456789abc.local", in: bytes)
    if let question = MDNSMessage.question(in: bytes),
       // A name whose labels survive writing (no dot inside a label, no empty label)...
       MDNSMessage.query(name: question.name, id: question.id).flatMap(MDNSMessage.question(in:))?.name == question.name {
        // ...can be answered, and the answer read back.
        if let answer = MDNSMessage.response(id: question.id, name: question.name, ipv4: [192, 0, 2, 1]),
           MDNSMessage.address(for: question.name, in: answer) != "192.0.2.1" {
            fatalError("the answer to \(question.name) does not read back")
        }
    }
    return 0
}
