import Testing
@testable import TernDTLS

@Suite struct DemultiplexedPacketTests {
    @Test(arguments: [
        ([0x00, 0x01], DemultiplexedPacket.stun), ([0x03, 0], .stun), ([16, 0], .zrtp),
        ([20, 0xFE], .dtls), ([22, 0xFE], .dtls), ([63, 0], .dtls), ([64, 0], .turnChannel), ([79, 0], .turnChannel),
        ([0x80, 96], .rtp), ([0x80, 0xE0], .rtp), ([0x80, 200], .rtcp), ([0x81, 201], .rtcp), ([0xBF, 223], .rtcp),
        ([0x80, 191], .rtp), ([0x80, 224], .rtp), ([4, 0], .unknown), ([80, 0], .unknown), ([192, 0], .unknown),
        ([255], .unknown), ([], .unknown), ([0x80], .unknown),
    ] as [([UInt8], DemultiplexedPacket)])
    func firstByteClassifiesByRFC7983(bytes: [UInt8], expected: DemultiplexedPacket) {
        #expect(DemultiplexedPacket(classifying: bytes) == expected)
    }
}
