import Testing
import TernPeer

@Suite("Peer connection: the Tern↔Tern extensions are offered only when configured")
struct TernExtensionsOfferTests {
    @Test("offersTernExtensions writes a=x-tern-sctp-max-packet by default and leaves it out when off")
    func attributeFollowsTheSetting() async throws {
        for offers in [true, false] {
            var configuration = PeerConfiguration.loopback
            configuration.offersTernExtensions = offers
            let pc = try PeerConnection(configuration: configuration)
            defer { pc.close() }
            _ = try pc.createDataChannel("d")
            let offer = try await pc.createOffer()
            #expect(offer.sdp.contains("a=x-tern-sctp-max-packet:16384") == offers, "offers: \(offers)")
        }
        #expect(PeerConfiguration().offersTernExtensions)
    }
}
