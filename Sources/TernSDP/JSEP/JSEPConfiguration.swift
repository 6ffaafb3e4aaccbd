/// What the negotiator needs from outside: identity, codecs and policies (RFC 9429 §4.1.1).
public struct JSEPConfiguration: Sendable, Equatable {
    /// Local DTLS certificate fingerprints (RFC 8122); at least one is required to create descriptions.
    public var fingerprints: [Fingerprint]
    /// Audio codecs we support, in preference order (default: Opus).
    public var audioCodecs: [RTPCodec]
    /// Video codecs we support, in preference order (default: VP8 + RTX).
    public var videoCodecs: [RTPCodec]
    /// RTP header extensions we offer and accept (RFC 8285), by URI; ids are assigned in this order from 1.
    public var headerExtensions: [String]
    /// `a=ice-options` we write (`trickle`, optionally `renomination`).
    public var iceOptions: [String]
    /// Our `a=setup` in answers to `actpass` offers (RFC 8842 §5.3: `active` recommended).
    public var answerSetup: SetupRole
    /// Our SCTP port (RFC 8841 §5).
    public var sctpPort: Int
    /// The largest message we accept on data channels (RFC 8841 §6).
    public var maxMessageSize: UInt64
    /// Whether remote offers of a data channel section are accepted.
    public var acceptsDataChannels: Bool
    /// The largest SCTP packet we read whole, advertised as `a=x-tern-sctp-max-packet` on the
    /// data section (nil: not advertised). DTLS allows 16 KiB records, but some stacks read a
    /// record into a 1,500-byte buffer and misparse the rest, so Tern sends packets larger than
    /// an Ethernet frame only to a peer that advertises this (see `TernSCTP.PathMTUSearch`).
    public var sctpMaxPacket: Int?

    /// The INIT chunk our SCTP association will use (chunk header included), offered as
    /// `a=sctp-init` so a peer that supports SNAP skips the SCTP handshake
    /// (draft-hancke-tsvwg-snap); nil: not offered, and not answered either.
    public var sctpInit: [UInt8]?

    /// The name of the attribute carrying `sctpMaxPacket`.
    public static let sctpMaxPacketAttribute = "x-tern-sctp-max-packet"
    /// The `a=ice-options` token (RFC 8839 §5.6) by which a Tern peer offers to carry the DTLS
    /// handshake in its connectivity checks (Docs/ICE.md, "DTLS in the checks"): used when both
    /// descriptions list it. Tern's own extension, like `sctpMaxPacketAttribute`: other stacks
    /// ignore an unknown token (RFC 8839 §5.6).
    public static let dtlsInChecksOption = "x-tern-dtls-in-stun"

    /// The mid header extension URI (RFC 9143 §15), needed to demultiplex BUNDLE.
    public static let midExtension = "urn:ietf:params:rtp-hdrext:sdes:mid"
    /// The transport-wide congestion control extension.
    public static let transportCCExtension = "http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01"

    /// Creates a configuration; only the fingerprints are mandatory.
    public init(fingerprints: [Fingerprint],
                audioCodecs: [RTPCodec] = [.opus()],
                videoCodecs: [RTPCodec] = [.vp8(), .rtx(payloadType: 97, apt: 96)],
                headerExtensions: [String] = [JSEPConfiguration.midExtension, JSEPConfiguration.transportCCExtension],
                iceOptions: [String] = ["trickle"],
                answerSetup: SetupRole = .active,
                sctpPort: Int = 5000,
                maxMessageSize: UInt64 = 262_144,
                acceptsDataChannels: Bool = true,
                sctpMaxPacket: Int? = nil,
                sctpInit: [UInt8]? = nil) {
        self.fingerprints = fingerprints
        self.audioCodecs = audioCodecs
        self.videoCodecs = videoCodecs
        self.headerExtensions = headerExtensions
        self.iceOptions = iceOptions
        self.answerSetup = answerSetup
        self.sctpPort = sctpPort
        self.maxMessageSize = maxMessageSize
        self.acceptsDataChannels = acceptsDataChannels
        self.sctpMaxPacket = sctpMaxPacket
        self.sctpInit = sctpInit
    }

    /// The supported codecs for a kind.
    public func codecs(for kind: MediaKind) -> [RTPCodec] { kind == .audio ? audioCodecs : videoCodecs }
}
