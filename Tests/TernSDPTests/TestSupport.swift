import Testing
import TernCore
import TernSDP

/// A fixed local identity for tests (the bytes are a test pattern, not a real certificate digest).
enum TestIdentity {
    static let fingerprint = Fingerprint(algorithm: "sha-256", bytes: (0..<32).map { UInt8($0 * 7 & 0xff) })
    static let configuration = JSEPConfiguration(fingerprints: [fingerprint])

    static func session(seed: UInt64 = 1, configuration: JSEPConfiguration = TestIdentity.configuration) -> JSEPSession {
        JSEPSession(configuration: configuration, random: SeededRandom(seed: seed))
    }
}

/// Structural checks every answer must pass (RFC 3264 §6, RFC 9429 §5.3.1).
enum AnswerChecks {
    struct Failure: Error, CustomStringConvertible { let description: String }

    static func assertValid(answer: SessionDescription, for offer: SessionDescription) throws {
        guard answer.media.count == offer.media.count else {
            throw Failure(description: "answer has \(answer.media.count) sections, offer \(offer.media.count)")
        }
        for (index, (a, o)) in zip(answer.media, offer.media).enumerated() {
            #expect(a.kind == o.kind, "section \(index) kind")
            #expect(a.mediaLine.proto == o.mediaLine.proto, "section \(index) proto")
            if let mid = o.mid { #expect(a.mid == mid, "section \(index) mid") }
            if a.isRejected { continue }
            #expect(a.iceUfrag != nil && a.icePwd != nil, "section \(index) ICE")
            #expect(!a.fingerprints.isEmpty, "section \(index) fingerprint")
            #expect(a.setup == .active || a.setup == .passive, "section \(index) setup")
            if o.mediaLine.isRTP {
                let offered = Set(o.mediaLine.payloadTypes)
                #expect(a.mediaLine.payloadTypes.allSatisfy(offered.contains), "section \(index) uses offer PTs")
                #expect(a.rtcpMux, "section \(index) rtcp-mux")
                let allowed = RTPDirection.answer(offered: o.direction ?? .sendrecv, local: .sendrecv)
                let d = a.direction ?? .sendrecv
                #expect(!d.sends || allowed.sends, "section \(index) direction")
                #expect(!d.receives || allowed.receives, "section \(index) direction")
            }
        }
        if let group = answer.bundleGroups.first, let offerGroup = offer.bundleGroups.first {
            #expect(group.mids.allSatisfy(offerGroup.mids.contains))
        }
    }
}
