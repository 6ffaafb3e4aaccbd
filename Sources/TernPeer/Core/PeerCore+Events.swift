import TernCore
package import TernDTLS
package import TernICE
import TernSDP

/// What ICE and the transport report, turned into state and W3C events.
extension PeerCore {
    /// An event of the ICE agent.
    package mutating func handle(ice event: ICEEvent) -> [Action] {
        guard !isClosed else { return [] }
        switch event {
        case let .candidate(candidate):
            // A held candidate may already be known (`agentGathered`): never added or reported twice.
            guard !jsep.localCandidates.contains(candidate) else { return [] }
            let candidateInit = jsep.addLocalCandidate(candidate)
            return candidatesReleased ? [.emit(.iceCandidate(candidateInit))] : []
        case .gatheringComplete:
            jsep.setLocalGatheringComplete()
            guard candidatesReleased, !endOfCandidatesReported else { return [] }
            endOfCandidatesReported = true
            return [.emit(.iceCandidate(nil))]
        case let .gatheringStateChanged(gathering):
            gatheringState = gathering
            // Only forward (new → gathering → complete): a pooled agent's earlier events can
            // arrive after `releaseHeldCandidates` reported where it already was.
            guard candidatesReleased, gathering.rank > reportedGatheringState.rank else { return [] }
            reportedGatheringState = gathering
            return [.emit(.iceGatheringStateChanged(gathering))]
        case let .stateChanged(state):
            iceState = state
            var actions: [Action] = [.emit(.iceConnectionStateChanged(state))]
            if iceCanCarryData, transportBuilt { actions.append(.startDTLS) }
            return actions + aggregateConnectionState()
        case let .selectedPairChanged(pair):
            let firstAfterEarlyStart = selectedPair == nil && validPair != nil
            selectedPair = pair
            // A selected pair can carry data at once (libnice sends on it before it reports the
            // component connected): start DTLS now rather than at the state change that follows.
            var actions: [Action] = transportBuilt ? [.updatePathLimits] : []
            actions.append(.emit(.selectedCandidatePairChanged(pair)))
            if transportBuilt { actions.append(.startDTLS) }
            if transportBuilt, firstAfterEarlyStart { actions.append(.pairSelectedDuringHandshake) }
            return actions
        case let .validPairFound(pair):
            // A check succeeded and ICE sends on that pair until nomination selects one
            // (RFC 8445 §12.1): the DTLS handshake need not wait for the nomination's round trip.
            validPair = pair
            return transportBuilt ? [.startDTLS] : []
        case .remoteCandidateDropped:
            return []  // recorded in the ICE trace with its reason
        }
    }

    /// The DTLS transport's state changed.
    package mutating func handle(dtls state: DTLSTransportState) -> [Action] {
        dtlsState = state
        return aggregateConnectionState()
    }

    /// The DTLS handshake finished.
    package mutating func handle(dtlsConnected info: DTLSConnectionInfo) -> [Action] {
        dtlsInfo = info
        return [.emit(.dtlsConnected(info))]
    }

    /// Reports held candidates once the local description is set (W3C: gathering state, each
    /// candidate, then end-of-candidates if gathering already finished).
    mutating func releaseHeldCandidates() -> [Action] {
        guard !candidatesReleased else { return [] }
        candidatesReleased = true
        guard gatheringState != .new || !jsep.localCandidates.isEmpty else { return [] }
        var actions: [Action] = [.emit(.iceGatheringStateChanged(.gathering))]
        reportedGatheringState = .gathering
        actions += jsep.localCandidates.map { .emit(.iceCandidate(jsep.candidateInit(for: $0))) }
        if jsep.localGatheringComplete {
            actions += [.emit(.iceGatheringStateChanged(.complete)), .emit(.iceCandidate(nil))]
            reportedGatheringState = .complete
            endOfCandidatesReported = true
        }
        return actions
    }

    /// W3C `connectionState` from the ICE and DTLS states; an event when it changed.
    private mutating func aggregateConnectionState() -> [Action] {
        let aggregate = PeerConnectionState.aggregate(ice: iceState, dtls: dtlsState, closed: isClosed)
        guard aggregate != connectionState else { return [] }
        connectionState = aggregate
        return [.emit(.connectionStateChanged(aggregate))]
    }
}

extension ICEGatheringState {
    /// new → gathering → complete.
    fileprivate var rank: Int { self == .new ? 0 : self == .gathering ? 1 : 2 }
}
