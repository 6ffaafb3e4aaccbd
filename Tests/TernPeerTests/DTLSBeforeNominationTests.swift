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

    /// Regular nomination (the default) with 2 s ticks: the controlling agent nominates on its
    /// third tick, 4–6 s after its first check, while a check on loopback succeeds at once and
    /// the handshakes take milliseconds (seconds of margin for a loaded machine: a full test run
    /// on two cores can hold a debug build's DTLS handshake for a second or more).
    private func slowNomination(sendsOnValidPairs: Bool) -> PeerConfiguration {
        var configuration = PeerConfiguration()
        configuration.ice.allowedAddresses = ["127.0.0.1"]
        configuration.ice.stunPacing = .seconds(2)
        configuration.ice.sendsOnValidPairs = sendsOnValidPairs
        // With 2 s ticks the whole handshake would ride in the checks (DTLSInChecksTests): off,
        // so that what is measured is when data may leave on a pair.
        configuration.negotiatesDTLSInChecks = false
        return configuration
    }

    /// Opens a channel between two such connections and waits until ICE selected on both sides;
    /// returns each side's timeline of DTLS, selection and channel events.
    private func connect(sendsOnValidPairs: Bool) async throws -> (caller: Timeline, callee: Timeline) {
        let pair = PeerPair(caller: try PeerConnection(configuration: slowNomination(sendsOnValidPairs: sendsOnValidPairs)),
                            callee: try PeerConnection(configuration: slowNomination(sendsOnValidPairs: sendsOnValidPairs)))
        let caller = Timeline(), callee = Timeline()
        let tasks = pair.startTrickle(onCaller: caller.record, onCallee: callee.record)
        defer { pair.close(); tasks.forEach { $0.cancel() } }
        let channel = try pair.caller.createDataChannel("channel")
        try await pair.negotiate()
        #expect(await eventually { channel.readyState == .open && callee.index("channel") != nil }, "\(pair.diagnosis)")
        #expect(await eventually { caller.index("selected") != nil && callee.index("selected") != nil }, "\(pair.diagnosis)")
        return (caller, callee)
    }

    /// Whether DTLS connected before (`true`) or after ICE selected, on each side.
    private func dtlsBeforeSelection(_ timelines: (caller: Timeline, callee: Timeline)) -> [String: Bool?] {
        ["caller": timelines.caller, "callee": timelines.callee].mapValues { timeline in
            guard let dtls = timeline.index("dtls"), let selected = timeline.index("selected") else { return nil }
            return dtls < selected
        }
    }

    @Test func theChannelOpensOnBothSidesBeforeICENominatesAPair() async throws {
        let timelines = try await connect(sendsOnValidPairs: true)
        #expect(dtlsBeforeSelection(timelines) == ["caller": true, "callee": true],
                "\(timelines.caller.events.withLock { $0 }) / \(timelines.callee.events.withLock { $0 })")
        let callee = timelines.callee
        #expect((callee.index("channel") ?? .max) < (callee.index("selected") ?? .min), "the remote channel opened before nomination")
    }

    @Test func withoutItDTLSWaitsForTheSelectedPair() async throws {
        let timelines = try await connect(sendsOnValidPairs: false)
        #expect(dtlsBeforeSelection(timelines) == ["caller": false, "callee": false],
                "\(timelines.caller.events.withLock { $0 }) / \(timelines.callee.events.withLock { $0 })")
    }
}
