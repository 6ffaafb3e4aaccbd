import Foundation
public import TernSDP

/// A W3C `RTCStatsReport` (webrtc-stats), one typed value per stats object: each family is a
/// struct whose property names are the W3C field names, so a field is read as a value
/// (`report.transport.dtlsState`) and the JSON form is what browsers report (`jsonString()`:
/// one flat object per entry with `id`, `type` and `timestamp`). Fields Tern adds beyond W3C
/// are marked so in their documentation.
public struct StatsReport: Sendable, Encodable {
    /// Milliseconds since the Unix epoch when the report was taken (W3C `DOMHighResTimeStamp`).
    public var timestamp: Double
    public var peerConnection: PeerConnectionStats
    public var transport: TransportStats
    /// The selected pair and its two candidates, once ICE selected one.
    public var candidatePair: CandidatePairStats?
    public var localCandidate: ICECandidateStats?
    public var remoteCandidate: ICECandidateStats?
    /// Both certificates, once DTLS is up.
    public var certificates: [CertificateStats] = []
    /// Once the SCTP association exists.
    public var sctpTransport: SCTPTransportStats?
    public var codecs: [CodecStats] = []
    public var mediaSources: [MediaSourceStats] = []
    public var outboundRTP: [OutboundRTPEntry] = []
    public var remoteInboundRTP: [RemoteInboundRTPEntry] = []
    public var inboundRTP: [InboundRTPEntry] = []
    public var dataChannels: [DataChannelStats] = []

    /// The inbound stream of one kind (the first, if several).
    public func inbound(_ kind: MediaKind) -> InboundRTPEntry? { inboundRTP.first { $0.kind == kind.rawValue } }
    /// The outbound stream of one kind (the first, if several).
    public func outbound(_ kind: MediaKind) -> OutboundRTPEntry? { outboundRTP.first { $0.kind == kind.rawValue } }

    /// W3C's entry types present in this report (`"inbound-rtp"`, …).
    public var types: Set<String> {
        var types: Set = [PeerConnectionStats.type, TransportStats.type]
        if candidatePair != nil { types.insert(CandidatePairStats.type) }
        if localCandidate != nil { types.insert("local-candidate") }
        if remoteCandidate != nil { types.insert("remote-candidate") }
        if !certificates.isEmpty { types.insert(CertificateStats.type) }
        if sctpTransport != nil { types.insert(SCTPTransportStats.type) }
        if !codecs.isEmpty { types.insert(CodecStats.type) }
        if !mediaSources.isEmpty { types.insert(MediaSourceStats.type) }
        if !outboundRTP.isEmpty { types.insert(OutboundRTPEntry.type) }
        if !remoteInboundRTP.isEmpty { types.insert(RemoteInboundRTPEntry.type) }
        if !inboundRTP.isEmpty { types.insert(InboundRTPEntry.type) }
        if !dataChannels.isEmpty { types.insert(DataChannelStats.type) }
        return types
    }

    /// Encodes as browsers report it: an array of flat objects, each with `id`, `type` and
    /// `timestamp` beside its fields.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        func add<S: Encodable>(_ stats: S, id: String, type: String) throws {
            try container.encode(Entry(id: id, type: type, timestamp: timestamp, stats: stats))
        }
        try add(peerConnection, id: "PC", type: PeerConnectionStats.type)
        try add(transport, id: transport.id, type: TransportStats.type)
        if let candidatePair { try add(candidatePair, id: candidatePair.id, type: CandidatePairStats.type) }
        if let localCandidate { try add(localCandidate, id: localCandidate.id, type: "local-candidate") }
        if let remoteCandidate { try add(remoteCandidate, id: remoteCandidate.id, type: "remote-candidate") }
        for certificate in certificates { try add(certificate, id: certificate.id, type: CertificateStats.type) }
        if let sctpTransport { try add(sctpTransport, id: sctpTransport.id, type: SCTPTransportStats.type) }
        for codec in codecs { try add(codec, id: codec.id, type: CodecStats.type) }
        for source in mediaSources { try add(source, id: source.id, type: MediaSourceStats.type) }
        for stream in outboundRTP { try add(stream, id: stream.id, type: OutboundRTPEntry.type) }
        for stream in remoteInboundRTP { try add(stream, id: stream.id, type: RemoteInboundRTPEntry.type) }
        for stream in inboundRTP { try add(stream, id: stream.id, type: InboundRTPEntry.type) }
        for channel in dataChannels { try add(channel, id: channel.id, type: DataChannelStats.type) }
    }

    /// The report as one JSON array (keys sorted).
    public func jsonString() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(self) else { return "[]" }
        return String(decoding: data, as: UTF8.self)
    }

    /// One entry of the JSON form: the stats' own fields with `type` and `timestamp` added.
    private struct Entry<S: Encodable>: Encodable {
        let id: String
        let type: String
        let timestamp: Double
        let stats: S

        private enum Keys: String, CodingKey { case type, timestamp }

        func encode(to encoder: any Encoder) throws {
            try stats.encode(to: encoder)  // its fields, `id` among them
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(type, forKey: .type)
            try container.encode(timestamp, forKey: .timestamp)
        }
    }
}
