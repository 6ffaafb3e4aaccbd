import Testing
import TernCall
import TernSignaling
import TernCore

@Suite("Call client state machine")
struct CallClientStateTests {
    private func at(_ ms: Int64) -> Instant { .zero + .milliseconds(ms) }

    private func clientStates(_ out: [CallOutput]) -> [CallClientState] {
        out.compactMap { if case .clientStateChanged(let state) = $0 { state } else { nil } }
    }

    @Test("stopped → starting (connect) → running")
    func startsAndRuns() throws {
        var client = CallClient()
        #expect(client.state == .stopped)
        #expect(try client.start(now: .zero) == [.clientStateChanged(.starting), .action(.connectSignaling)])
        #expect(client.signalingConnected(now: at(10)) == [.clientStateChanged(.running)])
        #expect(client.state == .running)
        #expect(throws: CallError.invalidClientState(operation: "start", state: .running)) {
            try client.start(now: at(20))
        }
    }

    @Test("a call can be placed only while running, with a typed error otherwise")
    func callNeedsRunning() throws {
        var client = CallClient()
        #expect(throws: CallError.clientNotRunning(.stopped)) {
            try client.call(callId: "c1", to: "bob", media: .audioOnly, txCode: "t", now: .zero)
        }
        _ = try client.start(now: .zero)
        #expect(throws: CallError.clientNotRunning(.starting)) {
            try client.call(callId: "c1", to: "bob", media: .audioOnly, txCode: "t", now: .zero)
        }
        #expect(client.receive(.invite(Invite(callId: "c1", from: "bob", to: "me", media: .audioOnly)),
                               now: .zero).isEmpty, "invites are not taken before running")
        #expect(CallError.clientNotRunning(.starting).description.contains("only while it is running"))
    }

    @Test("invalid invites are refused before anything is sent")
    func invalidInvite() throws {
        var client = CallClient()
        _ = try client.start(now: .zero)
        _ = client.signalingConnected(now: .zero)
        #expect(throws: CallError.invalidInvite("the ring time must be 1–600000 ms, not 700000 ms")) {
            try client.call(callId: "c1", to: "bob", media: .audioOnly, timeout: .seconds(700), txCode: "t", now: .zero)
        }
        #expect(throws: CallError.invalidInvite("the call id must be 1–128 bytes")) {
            try client.call(callId: "", to: "bob", media: .audioOnly, txCode: "t", now: .zero)
        }
        _ = try client.call(callId: "c1", to: "bob", media: .audioOnly, txCode: "t", now: .zero)
        #expect(throws: CallError.alreadyOnCall(callId: "c1")) {
            try client.call(callId: "c2", to: "carol", media: .audioOnly, txCode: "t", now: .zero)
        }
    }

    @Test("lost connection → paused → (backoff) resuming → running")
    func pausesAndResumes() throws {
        var client = CallClient()
        _ = try client.start(now: .zero)
        _ = client.signalingConnected(now: .zero)
        #expect(client.signalingLost(now: at(1000)) == [.clientStateChanged(.paused)])
        #expect(client.nextTimeout == at(1500))
        #expect(client.handleTimeout(now: at(1499)).isEmpty)
        #expect(client.handleTimeout(now: at(1500)) == [.clientStateChanged(.resuming), .action(.connectSignaling)])
        #expect(client.signalingConnected(now: at(1600)) == [.clientStateChanged(.running)])
        #expect(client.reconnectAttempts == 0)
        #expect(client.nextTimeout == nil)
    }

    @Test("reconnect attempts follow the backoff schedule and the client fails after maxReconnectAttempts")
    func failsAfterAttempts() throws {
        var client = CallClient()
        _ = try client.start(now: .zero)
        _ = client.signalingConnected(now: .zero)
        var now = Instant.zero
        var states = clientStates(client.signalingLost(now: now))
        var delays: [Duration] = []
        while client.state == .paused, let due = client.nextTimeout {
            delays.append(due - now)
            now = due
            states += clientStates(client.handleTimeout(now: now))
            states += clientStates(client.signalingConnectFailed(now: now))
        }
        #expect(delays == [.milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8)])
        #expect(states == [.paused] + Array(repeating: [.resuming, .paused], count: 4).flatMap { $0 } + [.resuming, .failed])
        #expect(client.state == .failed)
        #expect(client.nextTimeout == nil)
        #expect(try client.start(now: now) == [.clientStateChanged(.starting), .action(.connectSignaling)],
                "a failed client can be started again")
    }

    @Test("the first connection failing fails the client")
    func firstConnectFails() throws {
        var client = CallClient()
        _ = try client.start(now: .zero)
        #expect(client.signalingConnectFailed(now: at(5)) == [.clientStateChanged(.failed)])
    }

    @Test("stop during a call hangs it up first, then disconnects")
    func stopHangsUp() throws {
        var client = CallClient()
        _ = try client.start(now: .zero)
        _ = client.signalingConnected(now: .zero)
        _ = try client.call(callId: "c1", to: "bob", media: .audioOnly, txCode: "t", now: .zero)
        _ = client.receive(.accept(callId: "c1"), now: .zero)
        #expect(client.stop(now: at(1)) == [
            .send(.hangup(callId: "c1")),
            .stateChanged(CallStateChange(callId: "c1", txCode: "t", state: .ended, reason: .localHangUp)),
            .action(.closePeer(callId: "c1")),
            .action(.disconnectSignaling),
            .clientStateChanged(.stopped),
        ])
    }
}
