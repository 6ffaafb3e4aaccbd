import Testing
import TernSDP
import TernCore
@testable import TernICE

/// The sans-I/O probe: wire form, authentication, matching, statistics, giving up.
@Suite struct PairRTTProbeTests {
    let aPassword = "asd88fgpdd777uzjYhagZg", bPassword = "pd8Fb7bxUcFeUBqYmYwjQy"
    let id: [UInt8] = Array(1...12)

    @Test func probeMessageHasTheDocumentedLayoutAndRoundTrips() throws {
        let bytes = PairProbeMessage(kind: .request, id: id).encode(key: Array(bPassword.utf8))
        #expect(bytes.count == 36)
        #expect(Array(bytes[0..<4]) == [0xFE, 0x54, 0x70, 1])
        #expect(Array(bytes[4..<16]) == id)
        #expect(Array(bytes[16...]) == Array(HMACSHA256.authenticate(bytes[0..<16], key: Array(bPassword.utf8)).prefix(20)))
        let parsed = try PairProbeMessage(parsing: bytes, key: Array(bPassword.utf8))
        #expect(parsed == PairProbeMessage(kind: .request, id: id))
        #expect(bytes.withUnsafeBytes { PairProbeMessage.looksLikeProbe($0) })
    }

    @Test func malformedOrForgedProbesAreRejectedWithAReason() {
        let key = Array(bPassword.utf8)
        let good = PairProbeMessage(kind: .response, id: id).encode(key: key)
        #expect(throws: PairProbeMessage.ParseError.badMAC) { try PairProbeMessage(parsing: good, key: Array(aPassword.utf8)) }
        var flipped = good
        flipped[5] ^= 1
        #expect(throws: PairProbeMessage.ParseError.badMAC) { try PairProbeMessage(parsing: flipped, key: key) }
        var kind = good
        kind[3] = 9
        #expect(throws: PairProbeMessage.ParseError.badKind(9)) { try PairProbeMessage(parsing: kind, key: key) }
        for bad in [[], Array(good.dropLast()), good + [0], [0x16] + good.dropFirst()] {
            #expect(throws: PairProbeMessage.ParseError.notAProbe) { try PairProbeMessage(parsing: bad, key: key) }
            #expect(!bad.withUnsafeBytes { PairProbeMessage.looksLikeProbe($0) })
        }
        // What DTLS, STUN and RTP start with never looks like a probe (RFC 7983 ranges).
        for first: UInt8 in [0x00, 0x01, 0x16, 0x17, 0x40, 0x80, 0xBF] {
            let other = [first] + Array(good.dropFirst())
            #expect(!other.withUnsafeBytes { PairProbeMessage.looksLikeProbe($0) })
        }
    }

    @Test func requestAnsweredByThePeerGivesTheElapsedTimeAsRTT() throws {
        let clock = ManualClock(start: Instant(nanoseconds: 1_000_000_000))
        var a = PairRTTProbe(), b = PairRTTProbe()
        let request = a.makeRequest(now: clock.now(), id: id, remotePassword: bPassword)
        clock.advance(by: .milliseconds(20))
        guard case let .answer(response) = b.handle(request, now: clock.now(), localPassword: bPassword, remotePassword: aPassword)
        else { Issue.record("B did not answer"); return }
        clock.advance(by: .milliseconds(22))
        #expect(a.handle(response, now: clock.now(), localPassword: aPassword, remotePassword: bPassword) == .measured(.milliseconds(42)))
        #expect(a.requestsSent == 1 && a.responsesReceived == 1)
        #expect(a.currentRoundTripTime == .milliseconds(42) && a.totalRoundTripTime == .milliseconds(42))
        // The same answer again (duplicate or replay) does not count twice.
        guard case .rejected = a.handle(response, now: clock.now(), localPassword: aPassword, remotePassword: bPassword)
        else { Issue.record("replayed answer counted"); return }
        #expect(a.responsesReceived == 1)
        // B answers but measures nothing itself.
        #expect(b.requestsSent == 0 && b.responsesReceived == 0 && b.currentRoundTripTime == nil)
    }

    @Test func totalsAccumulateAndCurrentIsTheLatestSample() throws {
        let clock = ManualClock()
        var a = PairRTTProbe(), b = PairRTTProbe()
        for (n, ms) in [30, 10, 20].enumerated() {
            let request = a.makeRequest(now: clock.now(), id: [UInt8(n)] + Array(repeating: 0, count: 11), remotePassword: bPassword)
            guard case let .answer(response) = b.handle(request, now: clock.now(), localPassword: bPassword, remotePassword: aPassword)
            else { Issue.record("no answer"); return }
            clock.advance(by: .milliseconds(ms))
            _ = a.handle(response, now: clock.now(), localPassword: aPassword, remotePassword: bPassword)
            clock.advance(by: .seconds(5))
        }
        #expect(a.responsesReceived == 3 && a.currentRoundTripTime == .milliseconds(20))
        #expect(a.totalRoundTripTime == .milliseconds(60))
        a.reset()
        #expect(a.requestsSent == 0 && a.responsesReceived == 0 && a.currentRoundTripTime == nil && a.totalRoundTripTime == .zero)
    }

    @Test func unansweredRequestsExpireAndAPeerThatNeverAnswersIsGivenUpOn() {
        let clock = ManualClock()
        var a = PairRTTProbe(timeout: .seconds(5))
        for n in 0..<3 {
            _ = a.makeRequest(now: clock.now(), id: [UInt8(n)] + Array(repeating: 0, count: 11), remotePassword: bPassword)
            #expect(!a.peerIgnoresProbes())
            clock.advance(by: .seconds(6))
        }
        #expect(a.expire(now: clock.now()) == 1)
        #expect(a.unanswered == 3 && a.peerIgnoresProbes())
        // A late answer to an expired request does not count.
        var b = PairRTTProbe()
        let late = a.makeRequest(now: clock.now(), id: Array(repeating: 7, count: 12), remotePassword: bPassword)
        clock.advance(by: .seconds(6))
        _ = a.expire(now: clock.now())
        guard case let .answer(response) = b.handle(late, now: clock.now(), localPassword: bPassword, remotePassword: aPassword)
        else { Issue.record("no answer"); return }
        guard case .rejected = a.handle(response, now: clock.now(), localPassword: aPassword, remotePassword: bPassword)
        else { Issue.record("late answer counted"); return }
    }

    @Test func requestWithTheWrongPasswordIsNotAnswered() {
        var b = PairRTTProbe()
        var a = PairRTTProbe()
        let request = a.makeRequest(now: .zero, id: id, remotePassword: "not-bs-password-at-all")
        #expect(b.handle(request, now: .zero, localPassword: bPassword, remotePassword: aPassword)
            == .rejected(reason: PairProbeMessage.ParseError.badMAC.description))
    }
}
