/// The mapping of local extension ids to URIs that SDP negotiation produced
/// (`a=extmap:<id> <uri>`). A small value type, looked up per packet.
public struct HeaderExtensionMap: Sendable, Equatable {
    private var uriByID: [UInt8: RTPHeaderExtensionURI] = [:]
    private var idByURI: [RTPHeaderExtensionURI: UInt8] = [:]

    /// An empty map (no extension negotiated).
    public init() {}

    /// A map from `(id, uri)` pairs; a later pair replaces an earlier one with the same id.
    public init(_ pairs: [(UInt8, RTPHeaderExtensionURI)]) {
        for (id, uri) in pairs { register(id: id, uri: uri) }
    }

    /// Adds or replaces the mapping for `id`.
    public mutating func register(id: UInt8, uri: RTPHeaderExtensionURI) {
        if let old = uriByID[id] { idByURI[old] = nil }
        uriByID[id] = uri
        idByURI[uri] = id
    }

    /// The URI negotiated for `id`.
    public func uri(forID id: UInt8) -> RTPHeaderExtensionURI? { uriByID[id] }

    /// The id negotiated for `uri`.
    public func id(for uri: RTPHeaderExtensionURI) -> UInt8? { idByURI[uri] }
}
