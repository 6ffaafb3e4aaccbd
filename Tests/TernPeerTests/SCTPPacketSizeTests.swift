import Testing
import TernSCTP
@testable import TernPeer

/// Which SCTP packet sizes the peer connection lets path MTU discovery reach, per peer.
@Suite struct SCTPPacketSizeTests {
    @Test("packets beyond an Ethernet frame go only to a peer that advertised it reads them whole",
          arguments: [(nil as Int?, 1_412), (16_384, 16_384), (4_000, 4_000), (100_000, 16_384)])
    func packetLimitFollowsTheAdvertisement(advertised: Int?, expected: Int) {
        let config = TransportCore.sctpConfiguration(SCTPAssociationConfig(), remoteMaxPacket: advertised)
        #expect(config.maximumPacketSize == expected)
    }

    @Test("a Tern peer connection advertises that it reads a whole DTLS record")
    func offersAdvertiseSixteenKibibytes() async throws {
        let pc = try PeerConnection(configuration: .loopback)
        defer { pc.close() }
        _ = try pc.createDataChannel("x")
        let offer = try await pc.createOffer()
        #expect(offer.sdp.contains("a=x-tern-sctp-max-packet:16384\r\n"))
    }
}
