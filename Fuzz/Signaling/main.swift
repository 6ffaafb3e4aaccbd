// libFuzzer target: signaling protocol v1 frames (Docs/SIGNALING.md) as the server and the client
// decode them. A frame that decodes must encode and decode to the same message. The same bytes
// as a push body (signed here, so the JSON parse is reached) through PushInvitation.verify: a body
// that verifies must re-encode to one that verifies to the same invitation.
// Built only with TERN_FUZZ=1 (see Package.swift and Scripts/fuzz); libFuzzer supplies main().
import TernSignaling

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let text = String(decoding: bytes, as: UTF8.self)
    if let message = try? SignalingCodec.decode(text) {
        let again = try? SignalingCodec.decode(SignalingCodec.encode(message))
        if again != message { fatalError("signaling frame did not round-trip: \(text)") }
    }
    let secret = "fuzz-push-secret-0123456789abcdef"
    if let invitation = try? PushInvitation.verify(body: bytes, signature: PushInvitation.signature(of: bytes, secret: secret),
                                                   secret: secret, nowEpochMs: 0) {
        let body = invitation.body()
        let again = try? PushInvitation.verify(body: body, signature: PushInvitation.signature(of: body, secret: secret),
                                               secret: secret, nowEpochMs: 0)
        if again != invitation { fatalError("push invitation did not round-trip: \(text)") }
    }
    return 0
}
