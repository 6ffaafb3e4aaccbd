import TernCore
import TernDTLS
import TernICE
import TernPeer
import TernSDP
import TernTestSupport

/// One side of a `CorePair`: a `PeerCore` and a model of what its driver would do with the
/// actions (an ICE agent's credentials and remote candidates, a transport that is built once).
final class CoreEndpoint {
    let name: String
    var core: PeerCore
    /// The agent the core asked for, if any: what the driver's `ICETransport` would hold.
    var agent: ModelAgent?
    var events: [PeerConnectionEvent] = []
    var transportsBuilt = 0
    var configurations = 0
    var dtlsStarted = false
    /// When `.startDTLS` first came (virtual time).
    var dtlsStartedAt: Instant?
    /// How many times the core asked for an unanswered ClientHello to be repeated.
    var helloRepeats = 0
    var agentRestarts = 0
    /// Whether the core had the agent carry DTLS in its checks, and started DTLS for them.
    var carriesDTLSInChecks = false
    var dtlsStartedInChecks = false
    /// The actions other than `.emit`, in order, by name (`"gather"`, `"startDTLS"`…).
    var actionLog: [String] = []
    let hostAddress: String

    init(name: String, hostAddress: String, seed: UInt64, iceOptions: [String] = ["trickle"]) {
        self.name = name
        self.hostAddress = hostAddress
        let configuration = JSEPConfiguration(fingerprints: [Fingerprint(algorithm: "sha-256", bytes: Array(repeating: UInt8(seed), count: 32))],
                                              iceOptions: iceOptions)
        core = PeerCore(jsep: JSEPSession(configuration: configuration, random: SeededRandom(seed: seed)))
    }

    /// The W3C signaling states reported, in order.
    var signalingStates: [SignalingState] {
        events.compactMap { if case let .signalingStateChanged(state) = $0 { state } else { nil } }
    }

    /// The connection states reported, in order.
    var connectionStates: [PeerConnectionState] {
        events.compactMap { if case let .connectionStateChanged(state) = $0 { state } else { nil } }
    }

    /// The candidates reported (`nil`: end-of-candidates), in order.
    var reportedCandidates: [ICECandidateInit?] {
        events.compactMap { if case let .iceCandidate(candidate) = $0 { .some(candidate) } else { nil } }
    }
}

/// What the model ICE agent holds.
struct ModelAgent {
    var role: ICERole
    var localCredentials: ICECredentials?
    var remoteCredentials: ICECredentials?
    var remoteCandidates: [String] = []
    var remoteEndOfCandidates = false
    /// The credential pair a connection was already modelled for.
    var connectedWith: [ICECredentials]?
}

/// Two `PeerCore`s negotiating in virtual time (str0m style): descriptions and trickled
/// candidates travel over a signaling channel with a delay, a model ICE agent connects once
/// each side has the other's credentials and a candidate, a model DTLS handshake takes a round
/// trip. No sockets, no threads, no clock: a run is the same every time.
final class CorePair {
    let caller: CoreEndpoint
    let callee: CoreEndpoint
    private let clock = VirtualClock()
    var now: Instant { clock.now }
    /// One-way delay of descriptions on the signaling channel.
    var descriptionDelay: Duration = .milliseconds(40)
    /// One-way delay of trickled candidates (shorter than `descriptionDelay`: they overtake).
    var candidateDelay: Duration = .milliseconds(40)
    /// Network round trip (ICE checks, DTLS flights).
    var roundTrip: Duration = .milliseconds(50)
    /// When a server-reflexive candidate follows the host one after `gather`.
    var reflexiveDelay: Duration = .milliseconds(30)
    /// Model an agent that sends on valid pairs (`ICEConfiguration.sendsOnValidPairs`): a check
    /// succeeds a round trip after checking starts (`.validPairFound`) and regular nomination
    /// selects the pair a round trip after that (`.selectedPairChanged`, then `connected`).
    /// Off: the pair is selected and connected after one round trip, as before.
    var reportsValidPairs = false
    /// When the model agents selected their pair.
    private(set) var selectedAt: Instant?
    /// Errors the receiving side's operations threw (a test expects none unless it says so).
    private(set) var operationErrors: [String] = []

    private var queue: [(at: Instant, order: Int, work: () -> Void)] = []
    private var order = 0

    /// A pair whose caller wants a data channel, so the first offer has a section to bundle on;
    /// each side writes `a=ice-options` with these tokens.
    init(callerICEOptions: [String] = ["trickle"], calleeICEOptions: [String] = ["trickle"]) {
        caller = CoreEndpoint(name: "caller", hostAddress: "10.0.0.1", seed: 1, iceOptions: callerICEOptions)
        callee = CoreEndpoint(name: "callee", hostAddress: "10.0.0.2", seed: 2, iceOptions: calleeICEOptions)
        try? change(caller) { core throws(PeerConnectionError) in try core.addDataChannel() }
    }

    func other(_ endpoint: CoreEndpoint) -> CoreEndpoint { endpoint === caller ? callee : caller }

    // MARK: Virtual time

    func schedule(after delay: Duration, _ work: @escaping () -> Void) {
        order += 1
        queue.append((now + delay, order, work))
    }

    /// Runs what is due within `duration` of virtual time, in time order (what was scheduled
    /// first runs first at one instant).
    func run(for duration: Duration = .seconds(5)) {
        clock.advance(by: duration, deadlines: { queue.map(\.at) }, fire: { due in
            guard let next = queue.indices.filter({ queue[$0].at <= due }).min(by: { queue[$0].order < queue[$1].order })
            else { return }
            queue.remove(at: next).work()
        })
    }

    // MARK: Local intent (addTransceiver, restartICE…)

    /// Runs a local W3C intent on `endpoint`'s core and performs what it returns (its
    /// `negotiationNeeded`).
    func change(_ endpoint: CoreEndpoint,
                _ step: (inout PeerCore) throws(PeerConnectionError) -> [PeerCore.Action]) throws(PeerConnectionError) {
        perform(try step(&endpoint.core), at: endpoint)
    }

    // MARK: Operations (what PeerConnection's chained W3C operations do)

    func createOffer(_ endpoint: CoreEndpoint, iceRestart: Bool = false) throws(PeerConnectionError) -> JSEPDescription {
        try endpoint.core.createOffer(iceRestart: iceRestart)
    }

    func setLocal(_ endpoint: CoreEndpoint, _ description: JSEPDescription) throws(PeerConnectionError) {
        perform(try endpoint.core.setLocalDescription(description), at: endpoint)
    }

    func setRemote(_ endpoint: CoreEndpoint, _ description: JSEPDescription) throws(PeerConnectionError) {
        perform(try endpoint.core.setRemoteDescription(description), at: endpoint)
    }

    func addCandidate(_ endpoint: CoreEndpoint, _ candidate: ICECandidateInit?) throws(PeerConnectionError) {
        perform(try endpoint.core.addICECandidate(candidate), at: endpoint)
    }

    /// Creates and applies an offer at `from` and sends it to the other side.
    @discardableResult
    func sendOffer(from endpoint: CoreEndpoint, iceRestart: Bool = false) throws(PeerConnectionError) -> JSEPDescription {
        let offer = try createOffer(endpoint, iceRestart: iceRestart)
        try setLocal(endpoint, offer)
        deliver(offer, to: other(endpoint))
        return offer
    }

    /// Delivers a description after `descriptionDelay`; an offer is answered at once.
    func deliver(_ description: JSEPDescription, to endpoint: CoreEndpoint, answering: Bool = true) {
        schedule(after: descriptionDelay) { [unowned self] in
            do throws(PeerConnectionError) {
                try setRemote(endpoint, description)
                guard answering, description.type == .offer else { return }
                let answer = try endpoint.core.createAnswer()
                try setLocal(endpoint, answer)
                deliver(answer, to: other(endpoint))
            } catch {
                operationErrors.append("\(endpoint.name): \(error)")
            }
        }
    }

    /// Offer from the caller, answer from the callee, run for `duration` (until both settle).
    func connect(for duration: Duration = .seconds(5)) throws(PeerConnectionError) {
        try sendOffer(from: caller)
        run(for: duration)
    }

    // MARK: The driver's side of the actions

    func perform(_ actions: [PeerCore.Action], at endpoint: CoreEndpoint) {
        for action in actions {
            if case .emit = action {} else {
                endpoint.actionLog.append(String(describing: action).prefix { $0 != "(" }.description)
            }
            switch action {
            case let .createAgent(role):
                endpoint.agent = ModelAgent(role: role)
            case let .assignAgentRole(role):
                endpoint.agent?.role = role
            case let .gather(credentials):
                endpoint.agent?.localCredentials = credentials
                gather(at: endpoint, credentials: credentials)
            case let .restartAgent(credentials):
                endpoint.agentRestarts += 1
                endpoint.agent?.localCredentials = credentials
                endpoint.agent?.remoteCredentials = nil
                endpoint.agent?.remoteCandidates = []
                endpoint.agent?.remoteEndOfCandidates = false
                gather(at: endpoint, credentials: credentials)
            case let .applyRemoteICE(credentials, candidates, endOfCandidates):
                endpoint.agent?.remoteCredentials = credentials
                endpoint.agent?.remoteCandidates = candidates
                endpoint.agent?.remoteEndOfCandidates = endOfCandidates
                checkConnectivity()
            case let .addRemoteCandidate(candidate):
                endpoint.agent?.remoteCandidates.append(candidate)
                checkConnectivity()
            case .addRemoteEndOfCandidates:
                endpoint.agent?.remoteEndOfCandidates = true
            case .buildTransport:
                endpoint.transportsBuilt += 1
            case .configureTransport:
                endpoint.configurations += 1
            case .startDTLS:
                guard !endpoint.dtlsStarted else { continue }
                endpoint.dtlsStarted = true
                endpoint.dtlsStartedAt = now
                perform(endpoint.core.handle(dtls: .connecting), at: endpoint)
                schedule(after: roundTrip) { [unowned self] in
                    perform(endpoint.core.handle(dtls: .connected), at: endpoint)
                }
            case .updatePathLimits:
                break
            case .carryDTLSInChecks:
                endpoint.carriesDTLSInChecks = true
            case .startDTLSInChecks:
                endpoint.dtlsStartedInChecks = true
            case .pairSelectedDuringHandshake:
                endpoint.helloRepeats += 1
            case let .emit(event):
                endpoint.events.append(event)
                if case let .iceCandidate(candidate) = event {
                    let peer = other(endpoint)
                    schedule(after: candidateDelay) { [unowned self] in
                        do throws(PeerConnectionError) { try addCandidate(peer, candidate) } catch {
                            operationErrors.append("\(peer.name) addICECandidate: \(error)")
                        }
                    }
                }
            }
        }
    }

    /// libnice finds the host candidate while `gather` runs (reported at once through
    /// `agentGathered`, and again by its event); a server-reflexive one follows, then completion.
    private func gather(at endpoint: CoreEndpoint, credentials: ICECredentials) {
        let host = candidate(endpoint.hostAddress, port: 50_000 + endpoint.agentRestarts, type: .host, priority: 2_122_260_223)
        let reflexive = candidate("203.0.113.\(endpoint === caller ? 1 : 2)", port: 60_000 + endpoint.agentRestarts,
                                  type: .srflx, priority: 1_686_052_607)
        perform(endpoint.core.agentGathered([host], complete: false), at: endpoint)
        schedule(after: .zero) { [unowned self] in
            for event: ICEEvent in [.gatheringStateChanged(.gathering), .candidate(host)] {
                perform(endpoint.core.handle(ice: event), at: endpoint)
            }
        }
        schedule(after: reflexiveDelay) { [unowned self] in
            guard endpoint.agent?.localCredentials == credentials else { return }  // restarted since
            for event: ICEEvent in [.candidate(reflexive), .gatheringStateChanged(.complete), .gatheringComplete] {
                perform(endpoint.core.handle(ice: event), at: endpoint)
            }
        }
    }

    private func candidate(_ address: String, port: Int, type: ICECandidateType, priority: UInt32) -> ICECandidate {
        ICECandidate(foundation: type == .host ? "1" : "2", transport: .udp, priority: priority, address: address,
                     port: UInt16(port), type: type, relatedAddress: type == .host ? nil : "0.0.0.0", relatedPort: type == .host ? nil : 0)
    }

    /// The model of ICE: once each agent has the other's credentials and at least one side
    /// has a candidate of the other, checks succeed a round trip later.
    private func checkConnectivity() {
        guard let a = caller.agent, let b = callee.agent,
              let aLocal = a.localCredentials, let bLocal = b.localCredentials,
              a.remoteCredentials == bLocal, b.remoteCredentials == aLocal,
              !a.remoteCandidates.isEmpty || !b.remoteCandidates.isEmpty,
              a.connectedWith != [aLocal, bLocal] else { return }
        caller.agent?.connectedWith = [aLocal, bLocal]
        callee.agent?.connectedWith = [aLocal, bLocal]
        for endpoint in [caller, callee] {
            perform(endpoint.core.handle(ice: .stateChanged(.checking)), at: endpoint)
        }
        let pair = ICECandidatePair(local: candidate(caller.hostAddress, port: 50_000, type: .host, priority: 2_122_260_223),
                                    remote: candidate(callee.hostAddress, port: 50_000, type: .host, priority: 2_122_260_223))
        let nomination: Duration = reportsValidPairs ? roundTrip : .zero
        if reportsValidPairs {
            schedule(after: roundTrip) { [unowned self] in
                for endpoint in [caller, callee] where endpoint.agent?.connectedWith == [aLocal, bLocal] {
                    perform(endpoint.core.handle(ice: .validPairFound(pair)), at: endpoint)
                }
            }
        }
        schedule(after: roundTrip + nomination) { [unowned self] in
            selectedAt = now
            for endpoint in [caller, callee] where endpoint.agent?.connectedWith == [aLocal, bLocal] {
                let events: [ICEEvent] = reportsValidPairs ? [.selectedPairChanged(pair), .stateChanged(.connected)] : [.stateChanged(.connected)]
                for event in events { perform(endpoint.core.handle(ice: event), at: endpoint) }
            }
        }
    }
}
