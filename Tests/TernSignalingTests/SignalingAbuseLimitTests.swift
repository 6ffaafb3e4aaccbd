import Testing
import TernCore
import TernSignaling

/// Connections that never register, that send faster than any client needs, and more
/// connections than the server holds.
@Suite("Router and switchboard: abuse limits")
struct SignalingAbuseLimitTests {
    @Test("a connection that does not register within registerTimeoutMs is closed; a registered one is not")
    func registerDeadline() {
        var h = RouterHarness()
        h.router.open(connection: c(1), now: h.now)
        h.router.open(connection: c(2), now: h.now)
        h.register(2, "bob")
        #expect(h.router.nextTimeout == .zero + .milliseconds(10_000))
        #expect(h.advance(ms: 9_999).isEmpty)
        let actions = h.advance(ms: 1)
        #expect(actions == [.close(c(1), reason: "no register within 10000 ms")])
        #expect(h.router.nextTimeout == nil, "nothing left to wait for")
        #expect(h.router.user(of: c(2)) == "bob")
    }

    @Test("past the burst, messages are refused with rateLimited until tokens come back at messagesPerSecond")
    func rateLimit() {
        var limits = SignalingLimits()
        limits.messagesPerSecond = 10
        limits.messageBurst = 20
        var h = RouterHarness(limits: limits)
        var refused = 0
        for _ in 0..<30 { if errorCodes(h.register(1, "alice"), to: 1) == [.rateLimited] { refused += 1 } }
        #expect(refused == 10, "20 taken at once, 10 refused")
        _ = h.advance(ms: 500)   // 5 tokens back
        var accepted = 0
        for _ in 0..<8 { if h.register(1, "alice") == [send(1, .registered(user: "alice"))] { accepted += 1 } }
        #expect(accepted == 5)
        #expect(h.router.refusals[.rateLimited] == 13)
    }

    @Test("one connection more than maximumConnections is closed at once with closeServerFull")
    func connectionCap() async {
        let board = SignalingSwitchboard(maximumConnections: 2)
        let (_, first) = board.open()
        _ = board.open()
        let (third, refused) = board.open()
        var items: [SignalingSwitchboard.Outgoing] = []
        for await item in refused { items.append(item) }
        #expect(items == [.closeServerFull(reason: "the server holds 2 connections")])
        #expect(board.connectionCount == 2 && board.connectionsRefused == 1)
        #expect(!board.receive(#"{"type":"register","user":"x","token":""}"#, from: third), "nothing is taken from it")
        _ = first
    }
}
