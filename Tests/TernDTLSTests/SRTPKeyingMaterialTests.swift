import Testing
import TernCore
@testable import TernDTLS

@Suite struct SRTPKeyingMaterialTests {
    @Test(arguments: SRTPProtectionProfile.allCases)
    func exporterOutputSplitsAsRFC5764Section4_2(profile: SRTPProtectionProfile) throws {
        let k = profile.keyLength, s = profile.saltLength
        let exported = (0..<2 * (k + s)).map { UInt8($0) }
        let material = try #require(SRTPKeyingMaterial(profile: profile, exported: exported))
        // client_write_SRTP_master_key | server_write_SRTP_master_key | client_..._salt | server_..._salt
        #expect(material.clientWriteKey == Array(exported[0..<k]))
        #expect(material.serverWriteKey == Array(exported[k..<2 * k]))
        #expect(material.clientWriteSalt == Array(exported[2 * k..<2 * k + s]))
        #expect(material.serverWriteSalt == Array(exported[(2 * k + s)...]))
        #expect(material.localWrite(for: .client).key == material.remoteWrite(for: .server).key)
        #expect(material.localWrite(for: .server).salt == material.remoteWrite(for: .client).salt)
        #expect(SRTPKeyingMaterial(profile: profile, exported: Array(exported.dropLast())) == nil)
        #expect(!material.description.contains("0, 1, 2"))
    }

    @Test func exporterLengthsMatchWhatC_LIBRARIESMeasured() {
        // 56 bytes for AES-128-GCM, 60 for AES-CM (RFC 7714 §12, RFC 5764 §4.1.2); 88 for AES-256-GCM.
        #expect(2 * (SRTPProtectionProfile.aeadAes128Gcm.keyLength + SRTPProtectionProfile.aeadAes128Gcm.saltLength) == 56)
        #expect(2 * (SRTPProtectionProfile.aes128CmSha1_80.keyLength + SRTPProtectionProfile.aes128CmSha1_80.saltLength) == 60)
        #expect(2 * (SRTPProtectionProfile.aeadAes256Gcm.keyLength + SRTPProtectionProfile.aeadAes256Gcm.saltLength) == 88)
    }
}

@Suite struct SRTPKeyWipingTests {
    @Test("sessions made from keying material through the wiped master-key buffer pair up: client out ↔ server in, server out ↔ client in")
    func sessionsFromKeying() throws {
        let profile = SRTPProtectionProfile.aeadAes128Gcm
        let exported = (0..<(2 * (profile.keyLength + profile.saltLength))).map { UInt8($0) }
        let keying = try #require(SRTPKeyingMaterial(profile: profile, exported: exported))
        for (sender, receiver) in [(DTLSRole.client, DTLSRole.server), (.server, .client)] {
            let out = try SRTPSession(keying: keying, role: sender, direction: .outbound)
            let into = try SRTPSession(keying: keying, role: receiver, direction: .inbound)
            let plain = RTPPacket.make(sequence: 7, payload: [9, 8, 7])
            var packet = plain
            #expect(out.protectRTP(&packet) == .ok)
            #expect(into.unprotectRTP(&packet) == .ok)
            #expect(packet == plain)
        }
    }

    @Test("SecretBytes.wipe zeroes a buffer in place")
    func wipe() {
        var bytes: [UInt8] = [1, 2, 3, 4]
        SecretBytes.wipe(&bytes)
        #expect(bytes == [0, 0, 0, 0])
    }
}
