import Testing
import TernCore
import TernSignaling

@Suite("Router: seeded mutations of valid frames")
struct SignalingRouterMutationTests {
    /// Valid frames of every client type, to be corrupted.
    static let seeds: [String] = SignalingMessageCodingTests.all
        .filter { SignalingMessage.clientTypes.contains($0.type) }
        .map(SignalingCodec.encode)

    @Test("10,000 mutated frames from one connection: never a crash, alice and bob's call untouched")
    func mutations() {
        var random = SeededRandom(seed: 0x5167_4e41_4c49_4e47)
        var limits = SignalingLimits()
        limits.maxConsecutiveErrors = .max  // keep mallory connected for every frame
        var h = RouterHarness(limits: limits)
        h.register(1, "alice")
        h.register(2, "bob")
        h.register(3, "mallory")
        _ = h.send(1, .invite(Invite(callId: "c1", to: "bob")))
        _ = h.send(2, .accept(callId: "c1"))
        let alphabet = Array(#"{}[]":,\ntrue0-9e.ab"#.utf8)
        for _ in 0..<10_000 {
            var bytes = Array(Self.seeds[Int(random.next() % UInt64(Self.seeds.count))].utf8)
            for _ in 0...(random.next() % 4) {
                guard !bytes.isEmpty else { break }
                let index = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 3 {
                case 0: bytes[index] = alphabet[Int(random.next() % UInt64(alphabet.count))]
                case 1: bytes.remove(at: index)
                default: bytes.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: index)
                }
            }
            let out = h.json(3, String(decoding: bytes, as: UTF8.self))
            // A mutated frame may still be valid (e.g. a new invite or enqueue), but it
            // can only ever reach mallory or the user it names, never alice's call.
            for action in out {
                guard case .send(let to, let message) = action else {
                    Issue.record("unexpected close: \(action)")
                    continue
                }
                if to != c(3) { #expect(message.callId != "c1") }
            }
        }
        #expect(h.router.user(of: c(3)) == "mallory")
        let offer = SignalingMessage.description(callId: "c1", description: .init(type: .offer, sdp: "v=0"))
        #expect(h.send(1, offer) == [send(2, offer)])
    }
}
