import Testing
import TernCore
import TernRTP

@Suite("RTP header extensions (RFC 8285) and typed accessors")
struct RTPHeaderExtensionTests {
    let map = HeaderExtensionMap([
        (1, .mid), (2, .absSendTime), (3, .audioLevel), (4, .transportWideCC), (5, .rtpStreamID), (6, .repairedRTPStreamID),
    ])

    @Test("one-byte elements (§4.2): padding bytes skipped, id 15 stops parsing")
    func oneByte() throws {
        // id1 L=0 'a' | pad | id2 L=2 3 bytes | id15 stop | junk
        let ext = RTPHeaderExtension(profile: 0xBEDE, data: hex("1061 00 22010203 f0 ffff")[...])
        let elements = try ext.elements()
        #expect(elements == [RTPHeaderExtensionElement(id: 1, value: [0x61]), RTPHeaderExtensionElement(id: 2, value: [1, 2, 3])])
    }

    @Test("two-byte elements (§4.3) allow empty values and ids above 14")
    func twoByte() throws {
        let ext = RTPHeaderExtension(profile: 0x1000, data: hex("0100 00 ff03616263 000000")[...])
        #expect(ext.isTwoByte)
        #expect(try ext.elements() == [RTPHeaderExtensionElement(id: 1, value: []), RTPHeaderExtensionElement(id: 255, value: Array("abc".utf8))])
    }

    @Test("elements running past the block are a typed error with the offset")
    func overrun() {
        let ext = RTPHeaderExtension(profile: 0xBEDE, data: hex("10ab 23ff")[...])
        #expect(throws: RTPParseError.invalidExtensionElement(reason: "one-byte element id 2 of 4 byte(s) runs past the extension block", offset: 2)) {
            try ext.elements()
        }
        let two = RTPHeaderExtension(profile: 0x1000, data: hex("0105aabbcc")[...])
        #expect(throws: RTPParseError.self) { try two.elements() }
    }

    @Test("encoding picks one-byte when it fits, two-byte otherwise (§4.1)")
    func encodingChoice() throws {
        let small = RTPHeaderExtension(elements: [RTPHeaderExtensionElement(id: 1, value: [0x30])])
        #expect(small.profile == 0xBEDE)
        #expect(Array(small.data) == [0x10, 0x30, 0, 0])
        let long = RTPHeaderExtension(elements: [RTPHeaderExtensionElement(id: 1, value: [UInt8](repeating: 7, count: 17))])
        #expect(long.profile == 0x1000)
        #expect(long.data.count == 20)
        #expect(try long.elements().first?.value.count == 17)
        let bigID = RTPHeaderExtension(elements: [RTPHeaderExtensionElement(id: 15, value: [1])])
        #expect(bigID.isTwoByte)
        let padID = RTPHeaderExtension(elements: [RTPHeaderExtensionElement(id: 0, value: [1]), RTPHeaderExtensionElement(id: 2, value: [3])])
        #expect(try padID.elements() == [RTPHeaderExtensionElement(id: 2, value: [3])])
    }

    @Test("typed values survive set then get through the negotiated map")
    func typedRoundTrip() throws {
        var p = RTPPacket(payloadType: 96, sequenceNumber: 1, timestamp: 2, ssrc: 3, payload: [9][...])
        p.setHeaderExtensions([
            .mid("video0"), .absSendTime(0xABCDEF), .audioLevel(voiceActivity: true, level: 30),
            .transportSequenceNumber(0xFFFE), .rtpStreamID("hi"), .repairedRTPStreamID("lo"),
        ], map: map)
        let parsed = try RTPPacket(parsing: p.bytes)
        #expect(parsed.mid(map: map) == "video0")
        #expect(parsed.absSendTime(map: map) == 0xABCDEF)
        #expect(parsed.audioLevel(map: map)?.voiceActivity == true)
        #expect(parsed.audioLevel(map: map)?.level == 30)
        #expect(parsed.transportSequenceNumber(map: map) == 0xFFFE)
        #expect(parsed.rtpStreamID(map: map) == "hi")
        #expect(parsed.repairedRTPStreamID(map: map) == "lo")
        #expect(parsed.headerExtension?.profile == 0xBEDE)
    }

    @Test("values whose URI was not negotiated are not written and not read")
    func unnegotiated() throws {
        let only = HeaderExtensionMap([(4, .transportWideCC)])
        var p = RTPPacket(payloadType: 96, sequenceNumber: 1, timestamp: 2, ssrc: 3)
        p.setHeaderExtensions([.mid("x"), .transportSequenceNumber(7)], map: only)
        #expect(try p.headerExtension?.elements().map(\.id) == [4])
        #expect(p.mid(map: only) == nil)
        #expect(p.transportSequenceNumber(map: only) == 7)
    }

    @Test("abs-send-time is 6.18 fixed point seconds, wrapping at 64 s")
    func absSendTimeConversion() {
        #expect(HeaderExtensionValue.absSendTime(seconds: 1.5) == .absSendTime(0x060000))
        #expect(HeaderExtensionValue.absSendTime(seconds: 65) == .absSendTime(0x040000))
    }

    @Test("the map re-registers an id and looks up both ways")
    func mapLookup() {
        var m = HeaderExtensionMap()
        m.register(id: 3, uri: .mid)
        m.register(id: 3, uri: .audioLevel)
        #expect(m.uri(forID: 3) == .audioLevel)
        #expect(m.id(for: .mid) == nil)
        #expect(m.id(for: .audioLevel) == 3)
    }
}
