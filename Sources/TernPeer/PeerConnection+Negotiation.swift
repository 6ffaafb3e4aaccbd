import Foundation
import Synchronization
import TernICE
public import TernSCTP
public import TernSDP

/// Offer/answer (RFC 9429) and what it adds: transceivers, data channels, candidates.
extension PeerConnection {
    /// Adds a transceiver (W3C `addTransceiver`); fires `.negotiationNeeded`.
    public func addTransceiver(_ kind: MediaKind, direction: RTPDirection = .sendrecv) throws(PeerConnectionError) -> RtpTransceiver {
        let sender = makeSender(kind)
        let index = try state.withLock { state throws(PeerConnectionError) -> Int in
            guard !state.closed else { throw .invalidState("the peer connection is closed") }
            do throws(JsepError) {
                let index = try state.jsep.addTransceiver(Transceiver(kind: kind, direction: direction,
                                                                      sender: senderParameters(for: sender)))
                state.senders.append(sender)
                sender.attach(state.driver)
                return index
            } catch {
                throw .negotiation(error)
            }
        }
        emit(.negotiationNeeded)
        return RtpTransceiver(kind: kind, sender: sender, index: index, peer: self)
    }

    /// A sender with a fresh random SSRC (RFC 3550 §8.1).
    func makeSender(_ kind: MediaKind) -> RtpSender {
        var random = SystemRandomNumberGenerator()
        let ssrc = UInt32.random(in: 1...UInt32.max, using: &random)
        var rtxSSRC: UInt32?
        if kind == .video {
            repeat { rtxSSRC = UInt32.random(in: 1...UInt32.max, using: &random) } while rtxSSRC == ssrc
        }
        return RtpSender(kind: kind, ssrc: ssrc, rtxSSRC: rtxSSRC, audioBitrate: configuration.audioBitrate,
                         videoBitrateKbps: configuration.videoBitrateKbps)
    }

    /// The identity `sender` announces (`a=ssrc` cname, `a=msid`, RFC 8830).
    func senderParameters(for sender: RtpSender, streamId: String = "tern-stream", trackId: String? = nil) -> SenderParameters {
        SenderParameters(ssrc: sender.ssrc, rtxSSRC: sender.rtxSSRC, cname: "tern-\(certificateTag)", streamId: streamId,
                         trackId: trackId ?? "tern-\(sender.kind.rawValue)-\(sender.ssrc)")
    }

    /// Creates a data channel (W3C `createDataChannel`). The first one adds an application
    /// m-section, so it fires `.negotiationNeeded`; the channel opens once the SCTP association
    /// is up. A `negotiated` channel with an `id` opens without DCEP.
    public func createDataChannel(_ label: String, options: DataChannelInit = DataChannelInit()) throws(PeerConnectionError) -> DataChannel {
        let channel = DataChannel(label: label, options: options, id: options.id)
        let (driver, needsNegotiation) = try state.withLock { state throws(PeerConnectionError) -> (TransportDriver?, Bool) in
            guard !state.closed else { throw .invalidState("the peer connection is closed") }
            let needsNegotiation = !state.jsep.wantsDataChannel
            if needsNegotiation {
                do throws(JsepError) { try state.jsep.addDataChannel() } catch { throw .negotiation(error) }
            }
            if state.driver == nil { state.unattachedChannels.append(channel) }
            return (state.driver, needsNegotiation)
        }
        if let driver { try open(channel, on: driver) }
        if needsNegotiation { emit(.negotiationNeeded) }
        return channel
    }

    /// Asks the transport for a stream id and starts DCEP for `channel`.
    func open(_ channel: DataChannel, on driver: TransportDriver) throws(PeerConnectionError) {
        let hasSCTP = driver.perform { core, _ in core.sctp != nil }
        guard hasSCTP else {
            state.withLock { $0.unattachedChannels.append(channel) }
            return
        }
        let id: UInt16
        do throws(DataChannelError) {
            id = try driver.perform { (core, now) throws(DataChannelError) -> UInt16 in
                try core.createDataChannel(label: channel.label, options: channel.options, now: now)
            }
        } catch {
            throw .dataChannel(error)
        }
        channel.attach(driver, id: id)
        state.withLock { $0.channels[id] = channel }
        // A negotiated channel, or one created after the association is up, may already be open.
        if driver.perform({ core, _ in core.channelInfo(id)?.readyState }) == .open { channel.didOpen() }
    }

    /// W3C `createOffer`.
    public func createOffer(iceRestart: Bool = false) async throws(PeerConnectionError) -> JsepDescription {
        takeGatheredCandidates()
        return try state.withLock { state throws(PeerConnectionError) -> JsepDescription in
            do throws(JsepError) { return try state.jsep.createOffer(iceRestart: iceRestart) } catch { throw .negotiation(error) }
        }
    }

    /// W3C `createAnswer`.
    public func createAnswer() async throws(PeerConnectionError) -> JsepDescription {
        takeGatheredCandidates()
        return try state.withLock { state throws(PeerConnectionError) -> JsepDescription in
            do throws(JsepError) { return try state.jsep.createAnswer() } catch { throw .negotiation(error) }
        }
    }

    /// W3C `setLocalDescription`: applies it, starts ICE gathering (trickled through
    /// `.iceCandidate` events), and when the exchange completes, sets up the transport.
    public func setLocalDescription(_ description: JsepDescription) async throws(PeerConnectionError) {
        let signaling = try state.withLock { state throws(PeerConnectionError) -> SignalingState in
            guard !state.closed else { throw .invalidState("the peer connection is closed") }
            do throws(JsepError) { try state.jsep.setLocalDescription(description) } catch { throw .negotiation(error) }
            state.descriptions.applyLocal(description)
            return state.jsep.signalingState
        }
        emit(.signalingStateChanged(signaling))
        guard description.type != .rollback else { return }
        try prepareIce(localOffer: description.type == .offer)
        try applyLocalIce()
        releaseHeldCandidates()
        // An answer to an ICE restart restarts our agent here, which clears the remote
        // credentials and candidates the offer gave it: give them again (RFC 8445 §9).
        if description.type != .offer { try applyRemoteIce() }
        try applyNegotiationIfComplete()
    }

    /// W3C `setRemoteDescription`: applies it, hands the remote ICE credentials and candidates to
    /// ICE, and when the exchange completes, sets up the transport.
    public func setRemoteDescription(_ description: JsepDescription) async throws(PeerConnectionError) {
        let signaling = try state.withLock { state throws(PeerConnectionError) -> SignalingState in
            guard !state.closed else { throw .invalidState("the peer connection is closed") }
            do throws(JsepError) { try state.jsep.setRemoteDescription(description) } catch { throw .negotiation(error) }
            state.descriptions.applyRemote(description)
            return state.jsep.signalingState
        }
        emit(.signalingStateChanged(signaling))
        guard description.type != .rollback else { return }
        try prepareIce(localOffer: false)
        try applyRemoteIce()
        try applyNegotiationIfComplete()
    }

    /// W3C `addIceCandidate`; `nil` is end-of-candidates (RFC 8838 §4.4).
    public func addIceCandidate(_ candidate: IceCandidateInit?) async throws(PeerConnectionError) {
        let ice = try state.withLock { state throws(PeerConnectionError) -> IceTransport? in
            guard !state.closed else { throw .invalidState("the peer connection is closed") }
            guard let candidate else {
                state.remoteEndOfCandidates = true
                state.jsep.addRemoteEndOfCandidates()  // so that `remoteDescription` shows it
                return state.remoteCredentialsApplied == nil ? nil : state.ice
            }
            // A trickled candidate can overtake the description that scopes it (RFC 8838 §4.3): the
            // peer gathers as soon as it set its local description, and the app's signaling tasks
            // may deliver its candidates before our setRemoteDescription ran. W3C would throw
            // InvalidStateError and the candidate would be lost (ICE then never checks: both sides
            // stay `new`); we keep it and apply it with the description.
            guard state.jsep.remoteDescription != nil else {
                state.earlyRemoteCandidates.append(candidate)
                return nil
            }
            do throws(JsepError) { try state.jsep.addRemoteCandidate(candidate) } catch { throw .negotiation(error) }
            guard state.remoteCredentialsApplied != nil, let ice = state.ice else {
                state.pendingRemoteCandidates.append(candidate)
                return nil
            }
            return ice
        }
        guard let ice else { return }
        do throws(IceError) {
            if let candidate { try ice.addRemoteCandidate(candidate.candidate) } else { try ice.addRemoteEndOfCandidates() }
        } catch {
            throw .ice(error)
        }
    }

    /// W3C `restartIce`: the next offer carries new ICE credentials (RFC 8445 §9).
    public func restartIce() {
        state.withLock { $0.jsep.restartIce() }
        emit(.negotiationNeeded)
    }

    func setDirection(_ direction: RTPDirection, transceiverAt index: Int) throws(PeerConnectionError) {
        try state.withLock { state throws(PeerConnectionError) in
            do throws(JsepError) { try state.jsep.setDirection(direction, forTransceiverAt: index) } catch { throw .negotiation(error) }
        }
        emit(.negotiationNeeded)
    }

    func stopTransceiver(at index: Int) throws(PeerConnectionError) {
        try state.withLock { state throws(PeerConnectionError) in
            do throws(JsepError) { try state.jsep.stopTransceiver(at: index) } catch { throw .negotiation(error) }
        }
        emit(.negotiationNeeded)
    }

    /// A short tag of our certificate, used for the RTCP CNAME.
    var certificateTag: String {
        String(certificate.fingerprint(.sha256).digest.prefix(6).map { String(format: "%02x", $0) }.joined())
    }
}
