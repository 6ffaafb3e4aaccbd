import Foundation
import Testing
import TernSignaling
import TernSignalingClient
import TernSignalingServer

/// The next message of `client`, or nil after `seconds`.
func next(_ client: SignalingClient, within seconds: Double) async -> SignalingMessage? {
    await withTaskGroup(of: SignalingMessage?.self) { group in
        group.addTask { await next(client) }
        group.addTask {
            try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}

/// Whether `condition` holds within `seconds` (polled).
func eventually(seconds: Double = 30, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

@Suite("End to end: invitations delivered by push through a real webhook")
struct SignalingPushEndToEndTests {
    static let pushSecret = "push-secret-0123456789abcdef-0123456789"

    /// A server pushing to `receiver`, and alice registered on it.
    static func start(_ receiver: PushWebhookReceiver) async throws -> (SignalingServer, SignalingPushWebhook, SignalingClient, String) {
        let webhook = try SignalingPushWebhook(url: try await receiver.start(), secret: pushSecret,
                                               initialBackoff: .milliseconds(100))
        let server = SignalingServer(host: "127.0.0.1", port: 0, limits: .unhurried, pushWebhook: webhook)
        let url = "ws://127.0.0.1:\(try await server.start())/v1"
        let alice = try await SignalingClient.connect(url: url)
        try await alice.register(user: "alice", token: "dev")
        #expect(await next(alice, within: 30) == .registered(user: "alice"))
        return (server, webhook, alice, url)
    }

    @Test("an invite to an unregistered user fires the signed webhook within 1 s; the device registers 3 s later, rings and answers")
    func pushThenRegister() async throws {
        let receiver = PushWebhookReceiver()
        let (server, webhook, alice, url) = try await Self.start(receiver)
        let sent = ContinuousClock.now, sentEpochMs = Int64(Date().timeIntervalSince1970 * 1000)
        try await alice.send(.invite(Invite(callId: "c1", to: "bob", media: .audioVideo,
                                            attachedData: [AttachedData(dataName: "door", dataValue: "front")], timeoutMs: 20000)))
        #expect(await receiver.waitFor(1, seconds: 30))
        let push = try #require(receiver.received.first)
        // Prompt, not at the end of the ring time (the 1 s figure is Interop/signaling/push-wakeup's,
        // which runs alone; a full parallel run on 2 cores can starve this one for seconds).
        #expect(push.at - sent < .seconds(10))
        let invitation = try PushInvitation.verify(body: push.body, signature: push.signature ?? "", secret: Self.pushSecret,
                                                   nowEpochMs: Int64(Date().timeIntervalSince1970 * 1000))
        #expect(invitation.callId == "c1" && invitation.from == "alice" && invitation.to == "bob")
        #expect(invitation.media == .audioVideo && invitation.attachedData == [AttachedData(dataName: "door", dataValue: "front")])
        // The ring time (20 s) counts from when the server took the invite: after it was sent,
        // before the push left. A bound from the clock, not from how long this machine took.
        let pushDelayMs = Int64((push.at - sent) / .milliseconds(1)) + 1
        let ringTime = invitation.expiresAt - sentEpochMs
        #expect((20_000 - 1...20_000 + pushDelayMs).contains(ringTime), "expiresAt − sent \(ringTime) ms, push after \(pushDelayMs) ms")

        try await Task.sleep(for: .seconds(3))
        let bob = try await SignalingClient.connect(url: url)
        try await bob.register(user: "bob", token: "dev")
        #expect(await next(bob, within: 30) == .registered(user: "bob"))
        guard case .invite(let invite)? = await next(bob, within: 30) else { Issue.record("no pending invite"); return }
        #expect(invite.callId == "c1" && invite.from == "alice")
        try await bob.send(.ringing(callId: "c1"))
        #expect(await next(alice, within: 30) == .ringing(callId: "c1"))
        try await bob.send(.accept(callId: "c1"))
        #expect(await next(alice, within: 30) == .accept(callId: "c1"))
        #expect(await eventually { webhook.counters.delivered == 1 } && webhook.counters.failures == 0)
        await alice.close()
        await bob.close()
        await server.shutdown()
        await receiver.stop()
    }

    @Test("the webhook answering 503 is retried with back-off (failures counted); the invite still reaches the device that registers")
    func webhookDownIsRetried() async throws {
        let receiver = PushWebhookReceiver(failFirst: 3)
        let (server, webhook, alice, url) = try await Self.start(receiver)
        try await alice.send(.invite(Invite(callId: "c1", to: "bob", timeoutMs: 20000)))
        #expect(await receiver.waitFor(4, seconds: 30))
        #expect(await eventually { webhook.counters.delivered == 1 })
        #expect(webhook.counters.failures == 3)
        #expect(webhook.counters.delivered == 1)
        #expect(webhook.counters.attempts == 4)
        let bodies = Set(receiver.received.map(\.body))
        #expect(bodies.count == 1, "a retry sends the same signed body")
        let bob = try await SignalingClient.connect(url: url)
        try await bob.register(user: "bob", token: "dev")
        #expect(await next(bob, within: 30) == .registered(user: "bob"))
        guard case .invite? = await next(bob, within: 30) else { Issue.record("no pending invite"); return }
        await alice.close()
        await bob.close()
        await server.shutdown()
        await receiver.stop()
    }

    @Test("a webhook nobody listens on: every try fails and is counted until the ring time ends; the caller gets timeout")
    func webhookUnreachable() async throws {
        let webhook = try SignalingPushWebhook(url: "http://127.0.0.1:9/push", secret: Self.pushSecret,
                                               initialBackoff: .milliseconds(100))
        let server = SignalingServer(host: "127.0.0.1", port: 0, limits: .unhurried, pushWebhook: webhook)
        let url = "ws://127.0.0.1:\(try await server.start())/v1"
        let alice = try await SignalingClient.connect(url: url)
        try await alice.register(user: "alice", token: "dev")
        _ = await next(alice, within: 30)
        try await alice.send(.invite(Invite(callId: "c1", to: "bob", timeoutMs: 3000)))
        #expect(await next(alice, within: 30) == .timeout(callId: "c1"))
        // The webhook gives up when its last try fails at the ring time's end, a moment after the
        // server's own timer sent `timeout` (later still on a loaded machine): wait for that.
        #expect(await eventually { webhook.counters.expired == 1 }, "the push never gave up")
        #expect(webhook.counters.failures >= 1, "AsyncHTTPClient keeps reconnecting within one try until its deadline")
        #expect(webhook.counters.delivered == 0)
        await alice.close()
        await server.shutdown()
    }

    @Test("a forged, altered or expired push is refused by PushInvitation.verify with its reason")
    func verification() throws {
        let invitation = PushInvitation(callId: "c1", from: "alice", to: "bob", media: .audioOnly, attachedData: [],
                                        expiresAt: 2_000, mode: .oneToOne)
        let body = invitation.body()
        let signature = PushInvitation.signature(of: body, secret: Self.pushSecret)
        #expect(try PushInvitation.verify(body: body, signature: signature, secret: Self.pushSecret, nowEpochMs: 1_000) == invitation)
        #expect(throws: PushInvitationError.badSignature) {
            try PushInvitation.verify(body: body, signature: PushInvitation.signature(of: body, secret: "another secret"),
                                      secret: Self.pushSecret, nowEpochMs: 1_000)
        }
        var altered = body
        altered[altered.firstIndex(of: UInt8(ascii: "b"))!] = UInt8(ascii: "c")
        #expect(throws: PushInvitationError.badSignature) {
            try PushInvitation.verify(body: altered, signature: signature, secret: Self.pushSecret, nowEpochMs: 1_000)
        }
        #expect(throws: PushInvitationError.badSignature) {
            try PushInvitation.verify(body: body, signature: "sha256=zz", secret: Self.pushSecret, nowEpochMs: 1_000)
        }
        #expect(throws: PushInvitationError.expired(expiresAt: 2_000, now: 2_000)) {
            try PushInvitation.verify(body: body, signature: signature, secret: Self.pushSecret, nowEpochMs: 2_000)
        }
    }
}
