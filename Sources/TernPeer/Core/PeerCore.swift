package import TernCore
package import TernDTLS
package import TernICE
package import TernSDP

/// The peer connection's decisions as a sans-I/O value (the way `SCTPAssociation` and the call
/// core are): W3C operations, ICE events and transport events in, `Action`s out. It owns the
/// JSEP session (with W3C's description slots), the candidate queues (held local candidates,
/// remote ones that came early or before ICE had the peer's credentials) and the W3C state
/// aggregation (signaling, ICE gathering, ICE connection, connection), and decides when the
/// transport is built and when DTLS starts. It never touches a socket, a thread or a clock.
///
/// `PeerConnection` drives it: one lock around it, W3C operations chained one after the other,
/// the actions performed in order outside the lock (events are yielded under it, so none
/// overtakes another). Tests drive two of them against each other in virtual time
/// (`Tests/TernPeerCoreTests`).
package struct PeerCore: Sendable {
    /// What the driver does for the core, in order.
    package enum Action: Sendable {
        /// Create the ICE agent, with this role (RFC 8445 §6.1.1: the first offerer controls).
        case createAgent(role: ICERole)
        /// Tell the agent created for the candidate pool (`iceCandidatePoolSize`) its role.
        case assignAgentRole(ICERole)
        /// Give the agent our credentials and start gathering; then report what it already
        /// gathered with `agentGathered(_:complete:)` (or `agentGatherFailed()`).
        case gather(ICECredentials)
        /// Restart the agent with new credentials (RFC 8445 §9).
        case restartAgent(ICECredentials)
        /// Give the agent the peer's credentials and candidates.
        case applyRemoteICE(credentials: ICECredentials, candidates: [String], endOfCandidates: Bool)
        /// Give the agent one trickled candidate (RFC 8838 §4.3).
        case addRemoteCandidate(String)
        /// Tell the agent the peer has no more candidates (RFC 8838 §4.4).
        case addRemoteEndOfCandidates
        /// Build the DTLS/SRTP/SCTP transport for the first completed exchange.
        case buildTransport(NegotiatedTransport, dataChannel: NegotiatedDataChannel?)
        /// (Re)configure the transport's streams and data channels after an exchange completed.
        case configureTransport(send: [SendStreamConfiguration], receive: [ReceiveStreamConfiguration],
                                dataChannel: NegotiatedDataChannel?)
        /// ICE can carry data: start the DTLS handshake (does nothing the second time).
        case startDTLS
        /// Both descriptions offer DTLS in the connectivity checks: have the agent carry it
        /// (ICETransport+DTLSInChecks.swift), before its checks start.
        case carryDTLSInChecks
        /// As the DTLS client with DTLS in the checks: start the handshake before ICE can carry
        /// data, so that the ClientHello rides in the first check.
        case startDTLSInChecks
        /// The selected pair changed: read its path limits into the transport.
        case updatePathLimits
        /// ICE selected its first pair after DTLS had started on a valid one: repeat a
        /// ClientHello the server has not answered (a peer may have dropped it before selecting).
        case pairSelectedDuringHandshake
        /// Report an event to the application.
        case emit(PeerConnectionEvent)
    }

    /// Where the ICE agent is.
    enum Agent: Sendable, Equatable {
        case none
        /// Created for the candidate pool; waiting for the first description's role.
        case pooled
        case running
    }

    package internal(set) var jsep: JSEPSession
    var agent = Agent.none
    /// The credentials the agent was given (compared with JSEP's to see an ICE restart).
    var agentCredentials: ICECredentials?
    var gathering = false
    /// False while gathered candidates wait for `setLocalDescription` to report them (W3C:
    /// `icecandidate` events start with the local description): a pooled agent's, and those the
    /// first gathering finds while `setLocalDescription` starts it.
    var candidatesReleased = true
    /// The type of the local description whose application waits for `agentGathered`.
    var localDescriptionAwaitingGather: SDPType?
    /// What `.iceGatheringStateChanged` last reported (pooled events can come late).
    var reportedGatheringState = ICEGatheringState.new
    var endOfCandidatesReported = false
    var remoteCredentialsApplied: ICECredentials?
    /// Candidates JSEP accepted, waiting for ICE to get the remote credentials.
    var pendingRemoteCandidates: [ICECandidateInit] = []
    /// Candidates that arrived before any remote description (see `addICECandidate`).
    package internal(set) var earlyRemoteCandidates: [ICECandidateInit] = []
    /// Candidates refused because `earlyRemoteCandidates` was full (a peer trickling thousands
    /// before its description); reported in getStats beside ICE's own refusals.
    package internal(set) var earlyRemoteCandidatesDropped = 0
    var remoteEndOfCandidates = false
    var transportBuilt = false
    /// Whether the agent was told to carry DTLS in its checks (`carryDTLSInChecks`).
    package internal(set) var carriesDTLSInChecks = false
    /// Whether our descriptions offer DTLS in the checks (`JSEPConfiguration.dtlsInChecksOption`).
    package var offersDTLSInChecks: Bool { jsep.configuration.iceOptions.contains(JSEPConfiguration.dtlsInChecksOption) }

    package internal(set) var iceState = ICETransportState.new
    package internal(set) var gatheringState = ICEGatheringState.new
    package internal(set) var dtlsState = DTLSTransportState.new
    package internal(set) var connectionState = PeerConnectionState.new
    package internal(set) var dtlsInfo: DTLSConnectionInfo?
    package internal(set) var selectedPair: ICECandidatePair?
    /// The pair ICE could send on before it selected one (`ICEEvent.validPairFound`).
    package internal(set) var validPair: ICECandidatePair?
    package internal(set) var isClosed = false

    /// A core negotiating with `jsep`.
    package init(jsep: JSEPSession) {
        self.jsep = jsep
    }

    /// True while ICE is connected or completed, or is still checking but has a valid pair to
    /// send on: a transport built now may start DTLS at once.
    package var iceCanCarryData: Bool {
        switch iceState {
        case .connected, .completed: true
        case .new, .checking: validPair != nil
        case .disconnected, .failed, .closed: false
        }
    }

    /// True while gathered candidates are held: the driver reads the agent's candidates into
    /// `agentGathered` before creating a description, so that none already found is missing.
    package var holdsCandidates: Bool { !candidatesReleased && agent != .none }

    // MARK: Candidate pool

    /// Gathers before any description (W3C `iceCandidatePoolSize`): the agent starts as
    /// controlling, with the credentials the first description will carry; the first
    /// description corrects the role, `setLocalDescription` reports the candidates.
    package mutating func startCandidatePool() -> [Action] {
        guard agent == .none, !isClosed else { return [] }
        agent = .pooled
        candidatesReleased = false
        return [.createAgent(role: .controlling)] + startGathering()
    }

    /// The agent could not be created: back to no agent.
    package mutating func agentCreationFailed() -> [Action] {
        agent = .none
        gathering = false
        agentCredentials = nil
        candidatesReleased = true
        localDescriptionAwaitingGather = nil
        return []
    }

    // MARK: Close

    /// W3C `close`: no more negotiation; the connection state is `closed`.
    package mutating func close() -> Bool {
        guard !isClosed else { return false }
        isClosed = true
        jsep.close()
        connectionState = .closed
        return true
    }

    // MARK: Descriptions (W3C attributes)

    /// W3C `localDescription`: the pending one if there is one, else the current one.
    package var localDescription: JSEPDescription? {
        description(jsep.pendingLocal != nil ? \.pendingLocal : \.currentLocal, local: true)
    }

    /// W3C `remoteDescription`: the pending one if there is one, else the current one.
    package var remoteDescription: JSEPDescription? {
        description(jsep.pendingRemote != nil ? \.pendingRemote : \.currentRemote, local: false)
    }

    /// The slot's description as W3C returns it: the applied text, with the local candidates
    /// gathered since (and end-of-candidates) or the remote ones supplied since added.
    package func description(_ slot: KeyPath<JSEPSession, AppliedDescription?>, local: Bool) -> JSEPDescription? {
        guard let applied = jsep[keyPath: slot] else { return nil }
        // A remote slot's parse already holds the trickled candidates: compare with the text's own.
        let augmented = local ? jsep.addingLocalCandidates(to: applied.parsed)
            : (try? SDPParser().parse(applied.applied.sdp)).flatMap(jsep.addingRemoteCandidates(to:))
        guard let augmented else { return applied.applied }
        return JSEPDescription(type: applied.applied.type, sdp: augmented.text)
    }
}
