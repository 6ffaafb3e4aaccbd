public import TernCore

/// A sans-I/O JSEP negotiator (RFC 9429): creates offers and answers from local transceivers and a data
/// channel wish, applies local and remote descriptions through the signaling state machine, and exposes
/// the negotiated result. Everything it needs from outside — DTLS fingerprints, a random source for ICE
/// credentials and the session id, candidates — is passed in.
///
/// Policies: BUNDLE with `max-bundle` (one transport; sections outside the offer's BUNDLE group are
/// rejected), `rtcp-mux` required, `a=setup:actpass` in offers and `active` in answers by default.
/// m= sections are never reordered, never removed and (a choice RFC 9429 §5.2.2 allows) never recycled.
public struct JSEPSession: Sendable {
    /// Static inputs: fingerprints, codecs, policies.
    public private(set) var configuration: JSEPConfiguration
    /// The W3C signaling state.
    public internal(set) var signalingState: SignalingState = .stable
    /// Local transceivers in creation order.
    public internal(set) var transceivers: [Transceiver] = []
    /// True when a data channel section should be offered (set by `addDataChannel()`).
    public internal(set) var wantsDataChannel = false
    /// The ICE credentials in use (or offered, during an ICE restart).
    public internal(set) var localCredentials: ICECredentials
    /// Local candidates written into descriptions created from now on.
    public internal(set) var localCandidates: [ICECandidate] = []
    /// True once local gathering finished: descriptions then carry `a=end-of-candidates`.
    public internal(set) var localGatheringComplete = false

    /// W3C's four description slots (webrtc-pc §4.4.1.5): an offer or a provisional answer is
    /// pending until the final answer makes the exchange current; a rollback discards what was
    /// pending. The last applied local description of a completed exchange:
    public internal(set) var currentLocal: AppliedDescription?
    /// A local offer or pranswer not yet completed.
    public internal(set) var pendingLocal: AppliedDescription?
    /// The last applied remote description of a completed exchange.
    public internal(set) var currentRemote: AppliedDescription?
    /// A remote offer or pranswer not yet completed.
    public internal(set) var pendingRemote: AppliedDescription?

    /// `currentLocal`, parsed.
    public var currentLocalDescription: SessionDescription? { currentLocal?.parsed }
    /// `pendingLocal`, parsed.
    public var pendingLocalDescription: SessionDescription? { pendingLocal?.parsed }
    /// `currentRemote`, parsed (with the candidates supplied since).
    public var currentRemoteDescription: SessionDescription? { currentRemote?.parsed }
    /// `pendingRemote`, parsed (with the candidates supplied since).
    public var pendingRemoteDescription: SessionDescription? { pendingRemote?.parsed }

    /// `pendingLocalDescription ?? currentLocalDescription`.
    public var localDescription: SessionDescription? { pendingLocalDescription ?? currentLocalDescription }
    /// `pendingRemoteDescription ?? currentRemoteDescription`.
    public var remoteDescription: SessionDescription? { pendingRemoteDescription ?? currentRemoteDescription }

    var random: SeededRandom
    let sessionId: UInt64
    var sessionVersion: UInt64 = 1
    /// The m= line layout of the committed exchange.
    var slots: [Slot] = []
    /// True when the current local description was an offer (we were the offerer).
    var currentLocalIsOffer = true
    var lastOffer: (sdp: String, slots: [Slot], credentials: ICECredentials)?
    var lastAnswer: (sdp: String, credentials: ICECredentials)?
    var iceRestartRequested = false
    var dtlsRole: DTLSRole?
    /// State to return to on rollback (captured when leaving `stable`).
    var snapshot: Snapshot?

    /// Creates a negotiator. `random` supplies the session id and ICE credentials; seed it from a
    /// cryptographic source in production and with a constant in tests.
    public init(configuration: JSEPConfiguration, random: SeededRandom) {
        var random = random
        self.configuration = configuration
        self.sessionId = random.next() >> 2  // keep it below 2^62 (RFC 8866 §5.2 suggests NTP-like values)
        self.localCredentials = ICECredentials.random(using: &random)
        self.random = random
    }

    // MARK: Local intent

    /// Adds a transceiver (W3C `addTransceiver`) and returns its index. It gets an m= section in the next offer,
    /// or is matched to a new remote section of the same kind.
    @discardableResult
    public mutating func addTransceiver(_ transceiver: Transceiver) throws(JSEPError) -> Int {
        guard signalingState != .closed else { throw JSEPError(.invalidState, "the session is closed") }
        transceivers.append(transceiver)
        return transceivers.count - 1
    }

    /// Changes what a transceiver wants to do (hold = `sendonly` or `inactive`); takes effect on renegotiation.
    public mutating func setDirection(_ direction: RTPDirection, forTransceiverAt index: Int) throws(JSEPError) {
        guard transceivers.indices.contains(index) else { throw JSEPError(.range, "no transceiver at index \(index)") }
        guard !transceivers[index].isStopped, !transceivers[index].isStopping else {
            throw JSEPError(.invalidState, "transceiver \(index) is stopped")
        }
        transceivers[index].direction = direction
    }

    /// Replaces a transceiver's codec preferences (W3C `setCodecPreferences`).
    public mutating func setCodecPreferences(_ codecs: [RTPCodec], forTransceiverAt index: Int) throws(JSEPError) {
        guard transceivers.indices.contains(index) else { throw JSEPError(.range, "no transceiver at index \(index)") }
        transceivers[index].codecPreferences = codecs
    }

    /// Sets the sender identity written for a transceiver. Giving a sender to a transceiver a remote
    /// offer created makes it the application's (W3C `addTrack`): a rollback keeps it, unassociated.
    public mutating func setSender(_ sender: SenderParameters?, forTransceiverAt index: Int) throws(JSEPError) {
        guard transceivers.indices.contains(index) else { throw JSEPError(.range, "no transceiver at index \(index)") }
        transceivers[index].sender = sender
        if sender != nil { transceivers[index].createdByRemote = false }
    }

    /// Stops a transceiver (W3C `stop()`): its section gets port 0 in the next description; the mid is kept.
    public mutating func stopTransceiver(at index: Int) throws(JSEPError) {
        guard transceivers.indices.contains(index) else { throw JSEPError(.range, "no transceiver at index \(index)") }
        if transceivers[index].mid == nil {
            transceivers[index].isStopped = true
        } else {
            transceivers[index].isStopping = true
        }
        transceivers[index].currentDirection = nil
    }

    /// Asks for a data channel section (W3C: the first `createDataChannel` call).
    public mutating func addDataChannel() throws(JSEPError) {
        guard signalingState != .closed else { throw JSEPError(.invalidState, "the session is closed") }
        wantsDataChannel = true
    }

    /// Requests an ICE restart (W3C `restartICE`): the next offer carries new credentials (RFC 8839 §4.4.1.1.1).
    public mutating func restartICE() {
        iceRestartRequested = true
    }

    /// Adds a gathered local candidate; it is written into descriptions created afterwards.
    /// Returns the init to send to the remote side by trickle (RFC 8838).
    @discardableResult
    public mutating func addLocalCandidate(_ candidate: ICECandidate) -> ICECandidateInit {
        localCandidates.append(candidate)
        return candidateInit(for: candidate)
    }

    /// How a local candidate is signalled by trickle (RFC 8838 §4.1): tagged with the first
    /// bundled section of the local description (or the first section), and our ufrag.
    public func candidateInit(for candidate: ICECandidate) -> ICECandidateInit {
        let tagged = (localDescription?.bundleGroups.first?.mids.first) ?? slots.first?.mid
        let index = tagged.flatMap { mid in slots.firstIndex { $0.mid == mid } }
        return ICECandidateInit(candidate, sdpMid: tagged, sdpMLineIndex: index, usernameFragment: localCredentials.ufrag)
    }

    /// Marks local gathering complete.
    public mutating func setLocalGatheringComplete() { localGatheringComplete = true }

    /// Closes the session (W3C `close()`); every further call fails with InvalidStateError.
    public mutating func close() {
        signalingState = .closed
        for index in transceivers.indices {
            transceivers[index].isStopped = true
            transceivers[index].currentDirection = nil
        }
    }
}
