import Testing
import TernCall
import TernSignaling
import TernCore

/// Seeded random sequences of application, transport, data-channel, signaling and
/// time inputs on three devices. Whatever the order, no core traps and every call's
/// state sequence is a path of the documented state machine.
@Suite("Call core random walks")
struct CallRandomWalkTests {
    private static let next: [CallSessionState?: Set<CallSessionState>] = [
        nil: [.ringing, .connecting, .ended],
        .ringing: [.connecting, .ended],
        .connecting: [.inProgress, .ended],
        .inProgress: [.ended],
        .ended: [],
    ]

    @Test("random inputs keep every call on a legal path", arguments: 0..<40)
    func randomWalk(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let relay = CallRelay(devices: ["alice": "alice", "bob": "bob", "carol": "carol"])
        let devices = ["alice", "bob", "carol"]
        var callNumber = 0
        for _ in 0..<250 {
            let device = devices.randomElement(using: &random) ?? "alice"
            let now = relay.now
            switch Int.random(in: 0..<17, using: &random) {
            case 0, 1:
                callNumber += 1
                let callee = devices.filter { $0 != device }.randomElement(using: &random) ?? "bob"
                try? relay.call(device, to: callee, callId: "c\(callNumber)",
                                media: Bool.random(using: &random) ? .audioOnly : .audioVideo,
                                timeout: .seconds(Int64.random(in: 1...40, using: &random)), txCode: "tx\(callNumber)")
            case 2, 3: _ = try? relay.on(device) { try $0.accept(media: .audioVideo, now: now) }
            case 4: _ = try? relay.on(device) { try $0.reject(reason: .declined, now: now) }
            case 5: _ = try? relay.on(device) { try $0.hangUp(now: now) }
            case 6, 7:
                let events: [CallTransportEvent] = [.connected, .connected, .disconnected, .failed]
                relay.transport(device, events.randomElement(using: &random) ?? .connected)
            case 8:
                _ = try? relay.on(device) { try $0.sendMessage(eventData: [AttachedData(dataName: "k", dataValue: "v")], now: now) }
            case 9:
                let mode = VideoMode.allCases.randomElement(using: &random) ?? .sendReceive
                _ = try? relay.on(device) { try $0.setVideoMode(mode, now: now) }
            case 10:
                let mode = VideoMode.allCases.randomElement(using: &random) ?? .sendReceive
                _ = try? relay.on(device) { try $0.acceptVideo(mode: mode, now: now) }
            case 11:
                if let callId = relay.clients[device]?.currentCall?.callId {
                    _ = try? relay.on(device) { $0.videoRenegotiated(callId: callId, now: now) }
                }
            case 12:
                _ = try? relay.on(device) { try $0.startOperation(name: "START_OCR", now: now) }
                _ = try? relay.on(device) { try $0.turnBackToVideoCall(now: now) }
            case 13:
                if let callId = relay.clients[device]?.currentCall?.callId {
                    let junk = (0..<Int.random(in: 0...40, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
                    _ = try? relay.on(device) { $0.receiveManageCall(callId: callId, bytes: junk, now: now) }
                }
            case 14:
                if relay.clients[device]?.state == .running, Int.random(in: 0..<4, using: &random) == 0 {
                    relay.dropConnection(device)
                }
            default:
                relay.advance(by: .milliseconds(Int64.random(in: 0...25_000, using: &random)))
            }
            for other in devices where relay.clients[other]?.state == .resuming {
                if Bool.random(using: &random) {
                    relay.offline.remove(other)
                    _ = try? relay.on(other) { $0.signalingConnected(now: relay.now) }
                } else {
                    _ = try? relay.on(other) { $0.signalingConnectFailed(now: relay.now) }
                }
            }
            for other in devices where relay.clients[other]?.state == .failed {
                _ = try? relay.on(other) { try $0.start(now: relay.now) }
                relay.offline.remove(other)
                _ = try? relay.on(other) { $0.signalingConnected(now: relay.now) }
            }
        }
        // Let every timer run out: no call may stay active without a cause.
        for device in devices { _ = try? relay.on(device) { try $0.hangUp(now: relay.now) } }
        relay.advance(by: .seconds(700))

        for device in devices {
            var last: [String: CallSessionState] = [:]
            var closes: [String: Int] = [:]
            var peers: [String: Int] = [:]
            for output in relay.outputs[device] ?? [] {
                switch output {
                case .stateChanged(let change):
                    let allowed = Self.next[last[change.callId]] ?? []
                    #expect(allowed.contains(change.state),
                            "seed \(seed) \(device) \(change.callId): \(last[change.callId].map(\.rawValue) ?? "NO_CALL") → \(change.state)")
                    #expect((change.state == .ended) == (change.reason != nil))
                    last[change.callId] = change.state
                case .action(.createOffer(let id, _)), .action(.awaitOffer(let id, _)):
                    peers[id, default: 0] += 1
                case .action(.closePeer(let id)):
                    closes[id, default: 0] += 1
                default:
                    continue
                }
            }
            #expect(peers == closes, "seed \(seed) \(device): every peer created is closed exactly once")
            #expect(relay.clients[device]?.isOnCall == false, "seed \(seed) \(device) still on a call")
        }
    }
}
