import TernCore
public import TernDTLS
public import TernICE
public import TernSCTP

/// How a `PeerConnection` is set up (W3C `RTCConfiguration`, plus the knobs of the layers below).
///
/// Tern always uses the `max-bundle` bundle policy and requires `rtcp-mux` (JSEP §4.1.1, §4.1.3):
/// every m-section shares one ICE transport and one DTLS association.
public struct PeerConfiguration: Sendable {
    /// STUN and TURN servers (W3C `iceServers`).
    public var iceServers: [ICEServer]
    /// Which local candidates may be used (W3C `iceTransportPolicy`).
    public var iceTransportPolicy: ICETransportPolicy
    /// The DTLS certificate; a fresh ECDSA P-256 one is generated when nil.
    public var certificate: DTLSCertificate?
    /// libnice-level settings (allowed addresses, port range, STUN pacing, ICE-TCP). `servers` and
    /// `transportPolicy` in it are overwritten from `iceServers` / `iceTransportPolicy`.
    public var ice: ICEConfiguration
    /// SRTP protection profiles in order of preference.
    public var srtpProfiles: [SRTPProtectionProfile]
    /// The SCTP association's sizing (receive window, send buffer, RTO bounds).
    public var sctp: SCTPAssociationConfig
    /// The largest data-channel message we accept (`a=max-message-size`, RFC 8841 §6).
    public var maxMessageSize: Int
    /// Opus encoder settings for audio tracks sent through Tern's encoder.
    public var audioBitrate: Int
    /// The most VP8 sends for video tracks sent through Tern's encoder, in kbit/s; the bandwidth
    /// estimate takes it lower on a path that cannot carry it, never higher. Nil (the default):
    /// by the size of the pictures, as libwebrtc's defaults (600 up to 320×240, 1,700 up to
    /// 640×480, 2,000 up to 960×540, 2,500 above; `VP8EncoderConfiguration.defaultMaximumBitrateKbps`).
    public var videoBitrateKbps: Int?
    /// W3C `iceCandidatePoolSize`: above 0, the connection creates its ICE agent and gathers
    /// candidates as soon as it is created, before any description (one set of candidates:
    /// Tern has one bundled transport, so any size above 0 means the same). The first
    /// description applied then carries them (RFC 9429 §3.5.4, §5.2.1), so the peer can start
    /// checks at once instead of waiting for gathering and trickle — about 1–2 ms of set-up on
    /// loopback, more with STUN/TURN servers. Costs the agent's sockets and GLib thread from
    /// creation on. `.iceCandidate` events for pooled candidates fire after
    /// `setLocalDescription`, as W3C specifies. Default 0.
    public var iceCandidatePoolSize: Int = 0
    /// Received data-channel bytes that may wait in `DataChannel.events` unread, over all
    /// channels of the connection. At this many the connection stops taking messages from the
    /// SCTP association, whose receive window then closes, and the peer waits; reading them
    /// down to half resumes. Bounds the memory a fast peer can fill behind a slow reader
    /// (with the SCTP receive window, `sctp.receiveWindow`). Default 4 MiB.
    public var dataChannelReceiveBacklog = 4 * 1024 * 1024
    /// The longest a DTLS handshake may take once it started before the transport fails
    /// (`DTLSConfiguration.handshakeTimeout`): a peer that answers just often enough cannot keep
    /// it going for ever.
    public var dtlsHandshakeTimeout: Duration = .seconds(30)
    /// Offer the Tern↔Tern SCTP extensions (`a=x-tern-sctp-max-packet`: packets up to a DTLS
    /// record, a SACK every eighth packet, no pacing; Docs/SCTP.md). Used only when the other
    /// side announces them too, so other stacks never see a difference. Off makes two Tern
    /// peers behave as two standard ones (benchmarks compare like with like this way).
    public var offersTernExtensions = true
    /// Offer SNAP (draft-hancke-tsvwg-snap): our SCTP INIT in the description (`a=sctp-init`), so
    /// that a peer answering with its own skips the SCTP handshake, two round trips. A peer that
    /// does not know it (aiortc, Firefox, GStreamer, Chromium without its field trial) answers
    /// without it and the handshake runs as always.
    public var negotiatesSNAP = true
    /// Offer to carry the DTLS handshake in the ICE connectivity checks (`a=ice-options`
    /// `x-tern-dtls-in-stun`, Tern's libnice patch): the ClientHello rides in the DTLS client's
    /// first check and the server's flight in the reply, one round trip less to a connected
    /// transport (the idea of draft-hancke-webrtc-sped; Docs/ICE.md, "DTLS in the checks").
    /// Used only when the answer lists it too; other stacks ignore the token and connect as
    /// always. Offered only where the loaded libnice has the patch.
    public var negotiatesDTLSInChecks = true
    /// Sees every decrypted RTP, RTCP and SCTP packet (debugging; nil costs nothing). Runs on the
    /// transport's thread under its lock: it must be quick and must not call back into Tern.
    public var packetTap: (@Sendable (TappedPacket) -> Void)?

    public init(
        iceServers: [ICEServer] = [],
        iceTransportPolicy: ICETransportPolicy = .all,
        certificate: DTLSCertificate? = nil,
        ice: ICEConfiguration = ICEConfiguration(),
        srtpProfiles: [SRTPProtectionProfile] = SRTPProtectionProfile.defaultPreference,
        sctp: SCTPAssociationConfig = .webRTC,
        maxMessageSize: Int = 256 * 1024,
        audioBitrate: Int = 32_000,
        videoBitrateKbps: Int? = nil
    ) {
        self.iceServers = iceServers
        self.iceTransportPolicy = iceTransportPolicy
        self.certificate = certificate
        self.ice = ice
        self.srtpProfiles = srtpProfiles
        self.sctp = sctp
        self.maxMessageSize = maxMessageSize
        self.audioBitrate = audioBitrate
        self.videoBitrateKbps = videoBitrateKbps
        self.packetTap = nil
    }

    /// A configuration restricted to 127.0.0.1 host candidates: two peers in one machine, no
    /// STUN/TURN, the fastest connect (used by `tern call --loopback`, the benchmarks and the
    /// tests).
    ///
    /// Two ICE settings differ from the defaults, both because a loopback-only agent has exactly
    /// one host candidate, so (towards a peer on loopback) one candidate pair and no NAT:
    /// - checks are paced at Ta = 1 ms instead of 5 ms. RFC 8445 §14.2's 5 ms floor exists to
    ///   protect NAT devices from binding floods; there is no NAT on this path.
    /// - the controlling agent nominates aggressively (`ICENomination.aggressive`, RFC 5245
    ///   §8.1.1.2): with one pair it selects the pair regular nomination would, one tick of Ta
    ///   after the first check instead of three (libnice 0.1.21 spends a tick evaluating its
    ///   stopping criterion and another sending the nominating check).
    /// Together they take a loopback ICE connect from ~17 ms to ~2 ms (Docs/ICE.md, "Pacing").
    /// Do not copy either into a configuration that gathers on real interfaces.
    public static var loopback: PeerConfiguration {
        var configuration = PeerConfiguration()
        configuration.ice.allowedAddresses = ["127.0.0.1"]
        configuration.ice.stunPacing = .milliseconds(1)
        configuration.ice.nomination = .aggressive
        return configuration
    }
}

extension SCTPAssociationConfig {
    /// The SCTP defaults of a WebRTC peer connection: RFC 9260's, except that a retransmission
    /// timer backs off to 3 s at most instead of RTO.Max's 60 s (as Chromium's dcSCTP transport
    /// caps its timer back-off). On a lossy path a chunk lost three or four times in a row
    /// otherwise waits 8–16 s for its next retransmission while every later message of an
    /// ordered channel waits behind it.
    public static var webRTC: SCTPAssociationConfig {
        var config = SCTPAssociationConfig()
        config.rtoMax = .seconds(3)
        return config
    }
}
