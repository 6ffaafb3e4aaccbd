/// Candidate type (RFC 8445 §5.1.1; RFC 8839 §5.1 `cand-type`).
public enum ICECandidateType: String, Sendable, Codable, CaseIterable {
    /// Host candidate.
    case host
    /// Server-reflexive (learnt through STUN).
    case srflx
    /// Peer-reflexive (learnt from connectivity checks).
    case prflx
    /// Relayed (a TURN allocation).
    case relay
}

/// Candidate transport (RFC 8445 UDP; RFC 6544 TCP).
public enum ICECandidateTransport: String, Sendable, Codable, CaseIterable {
    /// UDP.
    case udp
    /// TCP (RFC 6544; `tcpType` says active/passive/so).
    case tcp
}

/// What ICE reads of a candidate: its type and transport as values, its mDNS name.
extension ICECandidate: CustomStringConvertible {
    /// A candidate from typed fields (what an ICE agent reports), written the way libnice and
    /// browsers write them: transport in capitals, `raddr`/`rport` then `tcptype` as extensions.
    public init(foundation: String, component: Int = 1, transport: ICECandidateTransport, priority: UInt32,
                address: String, port: UInt16, type: ICECandidateType, relatedAddress: String? = nil,
                relatedPort: UInt16? = nil, tcpType: String? = nil) {
        var extensions: [Extension] = []
        if let relatedAddress, let relatedPort {
            extensions += [Extension(name: "raddr", value: relatedAddress), Extension(name: "rport", value: String(relatedPort))]
        }
        if let tcpType { extensions.append(Extension(name: "tcptype", value: tcpType)) }
        self.init(foundation: foundation, component: component, transport: transport.rawValue.uppercased(),
                  priority: priority, address: address, port: Int(port), type: type.rawValue, extensions: extensions)
    }

    /// The type, if it is one RFC 8445 defines (the grammar allows other tokens).
    public var candidateType: ICECandidateType? { ICECandidateType(rawValue: type.lowercased()) }

    /// The transport, if UDP or TCP (compared without regard to case, RFC 8839 §5.1).
    public var transportProtocol: ICECandidateTransport? { ICECandidateTransport(rawValue: transport.lowercased()) }

    /// The port as a port number (the parser admits 0…65535 only).
    public var portNumber: UInt16 { UInt16(clamping: port) }

    /// True when the address is an mDNS name (RFC 8839 §5.1, draft-ietf-mmusic-mdns-ice-candidates).
    public var isMDNS: Bool { address.lowercased().hasSuffix(".local") }

    /// True for the names browsers signal for their host candidates: a UUID followed by `.local`
    /// (draft-ietf-mmusic-mdns-ice-candidates §3.1.1; the version digit is not checked).
    public var hasMDNSCandidateName: Bool {
        let utf8 = Array(address.lowercased().utf8)
        guard utf8.count == 36 + 6, utf8.suffix(6).elementsEqual(".local".utf8) else { return false }
        for (i, c) in utf8.prefix(36).enumerated() {
            let isDash = c == UInt8(ascii: "-")
            guard [8, 13, 18, 23].contains(i) ? isDash
                : (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(c)
            else { return false }
        }
        return true
    }

    /// `host udp 192.0.2.1:5000`.
    public var description: String { "\(type) \(transport.lowercased()) \(address):\(port)" }
}

/// JSON as the debug tool writes candidates (`tern ice --json`, ICE traces): the fields by name.
extension ICECandidate: Codable {
    private enum CodingKeys: String, CodingKey {
        case foundation, component, transport, priority, address, port, type, relatedAddress, relatedPort, tcpType
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(foundation: try c.decode(String.self, forKey: .foundation),
                  component: try c.decode(Int.self, forKey: .component),
                  transport: try c.decode(ICECandidateTransport.self, forKey: .transport),
                  priority: try c.decode(UInt32.self, forKey: .priority),
                  address: try c.decode(String.self, forKey: .address),
                  port: try c.decode(UInt16.self, forKey: .port),
                  type: try c.decode(ICECandidateType.self, forKey: .type),
                  relatedAddress: try c.decodeIfPresent(String.self, forKey: .relatedAddress),
                  relatedPort: try c.decodeIfPresent(UInt16.self, forKey: .relatedPort),
                  tcpType: try c.decodeIfPresent(String.self, forKey: .tcpType))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(foundation, forKey: .foundation)
        try c.encode(component, forKey: .component)
        try c.encode(transport.lowercased(), forKey: .transport)
        try c.encode(priority, forKey: .priority)
        try c.encode(address, forKey: .address)
        try c.encode(port, forKey: .port)
        try c.encode(type, forKey: .type)
        try c.encodeIfPresent(relatedAddress, forKey: .relatedAddress)
        try c.encodeIfPresent(relatedPort, forKey: .relatedPort)
        try c.encodeIfPresent(tcpType, forKey: .tcpType)
    }
}
