import Foundation
import TernICE
public import TernSCTP
public import TernSDP

/// Offer/answer (RFC 9429) and what it adds: transceivers, data channels, candidates.
extension PeerConnection {
    /// Adds a transceiver (W3C `addTransceiver`); fires `.negotiationNeeded`.
    public func addTransceiver(_ kind: MediaKind, direction: RTPDirection = .sendrecv) throws(PeerConnectionError) -> RTPTransceiver {
        let sender = makeSender(kind)
        let index = try advance { core throws(PeerConnectionError) in
            try core.addTransceiver(Transceiver(kind: kind, direction: direction, sender: senderParameters(for: sender)))
        }
        objects.add(sender: sender)
        return RTPTransceiver(kind: kind, sender: sender, index: index, peer: self)
    }

    /// A sender with a fresh random SSRC (RFC 3550 §8.1).
    func makeSender(_ kind: MediaKind) -> RTPSender {
        var random = SystemRandomNumberGenerator()
        let ssrc = UInt32.random(in: 1...UInt32.max, using: &random)
        var rtxSSRC: UInt32?
        if kind == .video {
            repeat { rtxSSRC = UInt32.random(in: 1...UInt32.max, using: &random) } while rtxSSRC == ssrc
        }
        return RTPSender(kind: kind, ssrc: ssrc, rtxSSRC: rtxSSRC, audioBitrate: configuration.audioBitrate,
                         videoBitrateKbps: configuration.videoBitrateKbps)
    }

    /// The identity `sender` announces (`a=ssrc` cname, `a=msid`, RFC 8830).
    func senderParameters(for sender: RTPSender, streamId: String = "tern-stream", trackId: String? = nil) -> SenderParameters {
        SenderParameters(ssrc: sender.ssrc, rtxSSRC: sender.rtxSSRC, cname: "tern-\(certificateTag)", streamId: streamId,
                         trackId: trackId ?? "tern-\(sender.kind.rawValue)-\(sender.ssrc)")
    }

    /// Creates a data channel (W3C `createDataChannel`). The first one adds an application
    /// m-section, so it fires `.negotiationNeeded`; the channel opens once the SCTP association
    /// is up. A `negotiated` channel with an `id` opens without DCEP.
    public func createDataChannel(_ label: String, options: DataChannelInit = DataChannelInit()) throws(PeerConnectionError) -> DataChannel {
        let channel = DataChannel(label: label, options: options, id: options.id)
        try advance { core throws(PeerConnectionError) in try core.addDataChannel() }
        if let driver = objects.transport(forNew: channel) { try open(channel, on: driver) }
        return channel
    }

    /// Asks the transport for a stream id and starts DCEP for `channel`.
    func open(_ channel: DataChannel, on driver: TransportDriver) throws(PeerConnectionError) {
        let hasSCTP = driver.perform { core, _ in core.sctp != nil }
        guard hasSCTP else {
            objects.waitForTransport(channel)
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
        objects.register(channel, id: id)
        // A negotiated channel, or one created after the association is up, may already be open.
        if driver.perform({ core, _ in core.channelInfo(id)?.readyState }) == .open { channel.didOpen() }
    }

    /// W3C `createOffer` (chained after the operations before it).
    public func createOffer(iceRestart: Bool = false) async throws(PeerConnectionError) -> JSEPDescription {
        try await operations.run { [self] () throws(PeerConnectionError) -> JSEPDescription in
            takeGatheredCandidates()
            return try advance { core throws(PeerConnectionError) in (try core.createOffer(iceRestart: iceRestart), []) }
        }
    }

    /// W3C `createAnswer` (chained).
    public func createAnswer() async throws(PeerConnectionError) -> JSEPDescription {
        try await operations.run { [self] () throws(PeerConnectionError) -> JSEPDescription in
            takeGatheredCandidates()
            return try advance { core throws(PeerConnectionError) in (try core.createAnswer(), []) }
        }
    }

    /// W3C `setLocalDescription` (chained): applies it, starts ICE gathering (trickled through
    /// `.iceCandidate` events), and when the exchange completes, sets up the transport.
    public func setLocalDescription(_ description: JSEPDescription) async throws(PeerConnectionError) {
        try await operations.run { [self] () throws(PeerConnectionError) in
            try advance { core throws(PeerConnectionError) in try core.setLocalDescription(description) }
        }
    }

    /// W3C `setRemoteDescription` (chained): applies it, hands the remote ICE credentials and
    /// candidates to ICE, and when the exchange completes, sets up the transport.
    public func setRemoteDescription(_ description: JSEPDescription) async throws(PeerConnectionError) {
        try await operations.run { [self] () throws(PeerConnectionError) in
            try advance { core throws(PeerConnectionError) in try core.setRemoteDescription(description) }
        }
    }

    /// W3C `addICECandidate` (chained); `nil` is end-of-candidates (RFC 8838 §4.4).
    public func addICECandidate(_ candidate: ICECandidateInit?) async throws(PeerConnectionError) {
        try await operations.run { [self] () throws(PeerConnectionError) in
            try advance { core throws(PeerConnectionError) in try core.addICECandidate(candidate) }
        }
    }

    /// W3C `restartICE`: the next offer carries new ICE credentials (RFC 8445 §9).
    public func restartICE() {
        try? advance { $0.restartICE() }
    }

    func setDirection(_ direction: RTPDirection, transceiverAt index: Int) throws(PeerConnectionError) {
        try advance { core throws(PeerConnectionError) in try core.setDirection(direction, transceiverAt: index) }
    }

    func stopTransceiver(at index: Int) throws(PeerConnectionError) {
        try advance { core throws(PeerConnectionError) in try core.stopTransceiver(at: index) }
    }

    /// A short tag of our certificate, used for the RTCP CNAME.
    var certificateTag: String {
        String(certificate.fingerprint(.sha256).digest.prefix(6).map { String(format: "%02x", $0) }.joined())
    }
}
