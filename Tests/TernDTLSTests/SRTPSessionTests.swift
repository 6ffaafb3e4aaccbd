import Testing
import TernCore
@testable import TernDTLS

@Suite struct SRTPSessionTests {
    static func sessions(_ profile: SRTPProtectionProfile) throws -> (SRTPSession, SRTPSession) {
        var random = SeededRandom(seed: UInt64(profile.rawValue))
        let key = (0..<profile.keyLength).map { _ in UInt8.random(in: 0...255, using: &random) }
        let salt = (0..<profile.saltLength).map { _ in UInt8.random(in: 0...255, using: &random) }
        return (try SRTPSession(profile: profile, key: key, salt: salt, direction: .outbound),
                try SRTPSession(profile: profile, key: key, salt: salt, direction: .inbound))
    }

    @Test(arguments: SRTPProtectionProfile.allCases)
    func rtpAndRtcpRoundTrip(profile: SRTPProtectionProfile) throws {
        let (sender, receiver) = try Self.sessions(profile)
        let plain = RTPPacket.make(sequence: 1, payload: Array(repeating: 0xAB, count: 160))
        var packet = plain
        #expect(sender.protectRTP(&packet) == .ok)
        #expect(packet.count > plain.count)
        #expect(Array(packet[12..<plain.count]) != Array(plain[12...]))
        #expect(receiver.unprotectRTP(&packet) == .ok)
        #expect(packet == plain)

        let report = RTPPacket.receiverReport()
        var rtcp = report
        #expect(sender.protectRTCP(&rtcp) == .ok)
        #expect(receiver.unprotectRTCP(&rtcp) == .ok)
        #expect(rtcp == report)
        #expect(receiver.statistics.rtpPackets == 1)
        #expect(receiver.statistics.rtcpPackets == 1)
    }

    @Test func replayedPacketIsAcceptedOnceAndTamperedPacketFailsAuthentication() throws {
        let (sender, receiver) = try Self.sessions(.aeadAes128Gcm)
        var packet = RTPPacket.make(sequence: 7, payload: [1, 2, 3, 4])
        #expect(sender.protectRTP(&packet) == .ok)
        let wire = packet

        var first = wire
        #expect(receiver.unprotectRTP(&first) == .ok)
        var second = wire
        #expect(receiver.unprotectRTP(&second) == .replayed)
        #expect(second.count == wire.count)  // a dropped packet keeps its length

        var next = RTPPacket.make(sequence: 8, payload: [5, 6, 7, 8])
        #expect(sender.protectRTP(&next) == .ok)
        next[14] ^= 0x01
        #expect(receiver.unprotectRTP(&next) == .authenticationFailed)

        let stats = receiver.statistics
        #expect(stats.rtpPackets == 1)
        #expect(stats.replays == 1)
        #expect(stats.authenticationFailures == 1)
    }

    @Test func tamperedPacketFailsAuthenticationWithHMACProfile() throws {
        let (sender, receiver) = try Self.sessions(.aes128CmSha1_80)
        var packet = RTPPacket.make(sequence: 1, payload: Array(repeating: 9, count: 20))
        #expect(sender.protectRTP(&packet) == .ok)
        packet[packet.count - 1] ^= 0xFF
        #expect(receiver.unprotectRTP(&packet) == .authenticationFailed)
        #expect(receiver.statistics.authenticationFailures == 1)
    }

    @Test func rolloverCounterAdvancesWhenSequenceWraps() throws {
        let (sender, receiver) = try Self.sessions(.aeadAes128Gcm)
        for sequence: UInt16 in [65_534, 65_535, 0, 1] {
            var packet = RTPPacket.make(sequence: sequence, payload: [UInt8(truncatingIfNeeded: sequence)])
            #expect(sender.protectRTP(&packet) == .ok)
            #expect(receiver.unprotectRTP(&packet) == .ok)
        }
        #expect(sender.rolloverCounter(ssrc: 0x1234_5678) == 1)
        #expect(receiver.rolloverCounter(ssrc: 0x1234_5678) == 1)
        #expect(receiver.rolloverCounter(ssrc: 42) == nil)
    }

    @Test func aRemovedStreamIsForgottenAndStartsAfreshOnItsNextPacket() throws {
        let (sender, receiver) = try Self.sessions(.aeadAes128Gcm)
        var first = RTPPacket.make(sequence: 10, ssrc: 0xCAFE_0001, payload: [1])
        #expect(sender.protectRTP(&first) == .ok)
        let wire = first
        #expect(receiver.unprotectRTP(&first) == .ok)
        #expect(receiver.rolloverCounter(ssrc: 0xCAFE_0001) == 0, "cloned from the template on arrival")
        receiver.removeStream(ssrc: 0xCAFE_0001)
        #expect(receiver.rolloverCounter(ssrc: 0xCAFE_0001) == nil, "gone")
        receiver.removeStream(ssrc: 0xCAFE_0001)   // unknown now: no effect
        // With its replay window gone, the same packet is taken again: nothing is kept for it.
        var again = wire
        #expect(receiver.unprotectRTP(&again) == .ok)
        #expect(receiver.rolloverCounter(ssrc: 0xCAFE_0001) == 0)
    }

    @Test func malformedPacketsAreCountedNotThrown() throws {
        let (sender, receiver) = try Self.sessions(.aeadAes256Gcm)
        var short: [UInt8] = [0x80, 96, 0]
        #expect(sender.protectRTP(&short) == .malformed)
        var notRTP = [UInt8](repeating: 0, count: 40)
        #expect(receiver.unprotectRTP(&notRTP) == .malformed)
        var random = SeededRandom(seed: 99)
        for _ in 0..<200 {
            var garbage = (0..<Int.random(in: 0...80, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            if !garbage.isEmpty { garbage[0] = 0x80 | (garbage[0] & 0x3F) }
            #expect(receiver.unprotectRTP(&garbage) != .ok)
        }
        #expect(receiver.statistics.rtpPackets == 0)
        #expect(sender.statistics.malformed == 1)
    }

    @Test func wrongKeyLengthIsATypedError() {
        #expect(throws: SRTPError.invalidKeyLength(profile: .aeadAes256Gcm, keyLength: 16, saltLength: 12)) {
            try SRTPSession(profile: .aeadAes256Gcm, key: Array(repeating: 0, count: 16),
                            salt: Array(repeating: 0, count: 12), direction: .outbound)
        }
    }
}

@Suite struct SRTPManyStreamsTests {
    @Test("an outbound session protects packets under 3,000 SSRCs; an inbound one removes the streams it does not keep")
    func manySSRCs() throws {
        let (sender, receiver) = try SRTPSessionTests.sessions(.aeadAes128Gcm)
        for index in 0..<3_000 {
            var packet = RTPPacket.make(sequence: 1, ssrc: 0x5000_0000 &+ UInt32(index), payload: [1, 2, 3, 4])
            #expect(sender.protectRTP(&packet) == .ok)
            #expect(receiver.unprotectRTP(&packet) == .ok)
            if index >= 8 { receiver.removeStream(ssrc: 0x5000_0000 &+ UInt32(index)) }
        }
    }
}
