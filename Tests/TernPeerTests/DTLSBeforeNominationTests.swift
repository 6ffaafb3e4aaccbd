import Foundation
import Synchronization
import Testing
import TernICE
@testable import TernPeer

/// The DTLS handshake starts on the first valid ICE pair instead of waiting for nomination
/// (RFC 8445 §12.1; `ICEConfiguration.sendsOnValidPairs`, Tern's libnice patch).
@Suite(.enabled(if: ICETransport.libniceHasTernPatch || getuid() == 0,
                "libnice without Tern's patch, and not root: run Scripts/libnice as root"))
struct DTLSBeforeNominationTests {
    /// What one side reported, in order.
    final class Timeline: Sendable {
        let events = Mutex<[String]>([])
        func record(_ event: PeerConnectionEvent) {
            let name: String? = switch event {
            case .dtlsConnected: "dtls"
            case .selectedCandidatePairChanged: "selected"
            case .dataChannel: "channel"
            default: nil
            }
            if let name { events.withLock { $0.append(name) } }
        }
        func index(_ name: String) -> Int? { events.withLock { $0.firstIndex(of: name) } }
    }

    /// Regular nomination (the default) with 1 s ticks: the controlling agent nominates on its
    /// third tick, 2–3 s after its first check, while a check on loopback succeeds at once and
    /// the handshake takes milliseconds (seconds of margin for a loaded machine).
    private func slowNomination(sendsOnValidPairs: Bool) -> PeerConfiguration {
        var configuration = PeerConfiguration()
        configuration.ice.allowedAddresses = ["127.0.0.1"]
        configuration.ice.stunPacing = .seconds(1)
        configuration.ice.sendsOnValidPairs = sendsOnValidPairs
        return configuration
    }

    @Test func theChannelOpensOnBothSidesBeforeICENominatesAPair() async throws {
        let pair = PeerPair(caller: try PeerConnection(configuration: slowNomination(sendsOnValidPairs: true)),
                            callee: try PeerConnection(configuration: slowNomination(sendsOnValidPairs: true)))
        let caller = Timeline(), callee = Timeline()
        let tasks = pair.startTrickle(onCaller: caller.record, onCallee: callee.record)
        defer { pair.close(); tasks.forEach { $0.cancel() } }
        let channel = try pair.caller.createDataChannel("early")
        try await pair.negotiate()
        #expect(await eventually { channel.readyState == .open && callee.index("channel") != nil }, "\(pair.diagnosis)")
        #expect(await eventually { caller.index("selected") != nil && callee.index("selected") != nil }, "\(pair.diagnosis)")
        for (side, timeline) in [("caller", caller), ("callee", callee)] {
            let events = timeline.events.withLock { $0 }
            let dtls = timeline.index("dtls"), selected = timeline.index("selected")
            #expect(dtls != nil && selected != nil && dtls! < selected!, "\(side): \(events)")
        }
        #expect(callee.index("channel")! < callee.index("selected")!, "the remote channel opened before nomination")
    }

    @Test func withoutItDTLSWaitsForTheSelectedPair() async throws {
        let pair = PeerPair(caller: try PeerConnection(configuration: slowNomination(sendsOnValidPairs: false)),
                            callee: try PeerConnection(configuration: slowNomination(sendsOnValidPairs: false)))
        let caller = Timeline(), callee = Timeline()
        let tasks = pair.startTrickle(onCaller: caller.record, onCallee: callee.record)
        defer { pair.close(); tasks.forEach { $0.cancel() } }
        let channel = try pair.caller.createDataChannel("late")
        try await pair.negotiate()
        #expect(await eventually { channel.readyState == .open && callee.index("channel") != nil }, "\(pair.diagnosis)")
        for (side, timeline) in [("caller", caller), ("callee", callee)] {
            let events = timeline.events.withLock { $0 }
            let dtls = timeline.index("dtls"), selected = timeline.index("selected")
            #expect(dtls != nil && selected != nil && selected! < dtls!, "\(side): \(events)")
        }
    }
}
