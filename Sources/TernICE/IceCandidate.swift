/// One ICE candidate, as carried in an SDP `a=candidate` line (RFC 8839 §5.1).
///
/// ```
/// candidate:<foundation> <component> <transport> <priority> <address> <port>
///           typ <host|srflx|prflx|relay> [raddr <addr> rport <port>]
///           [tcptype <active|passive|so>] *(<extension-name> <value>)
/// ```
/// Parsing never traps on malformed input; it throws `IceError.malformedCandidate`.
public struct IceCandidate: Hashable, Sendable, Codable, CustomStringConvertible {
    /// RFC 8445 §5.1.1.3.
    public var foundation: String
    /// 1 for RTP (the only component Tern uses: rtcp-mux + BUNDLE).
    public var component: UInt32
    /// Transport protocol.
    public var transport: IceCandidateTransport
    /// RFC 8445 §5.1.2.
    public var priority: UInt32
    /// IP address or, for mDNS-obfuscated host candidates, a `.local` name.
    public var address: String
    /// UDP/TCP port.
    public var port: UInt16
    /// Candidate type.
    public var type: IceCandidateType
    /// `raddr` (for srflx/prflx/relay).
    public var relatedAddress: String?
    /// `rport`.
    public var relatedPort: UInt16?
    /// `tcptype` (RFC 6544), for TCP candidates.
    public var tcpType: String?

    /// Memberwise initialiser.
    public init(foundation: String, component: UInt32 = 1, transport: IceCandidateTransport, priority: UInt32,
                address: String, port: UInt16, type: IceCandidateType, relatedAddress: String? = nil,
                relatedPort: UInt16? = nil, tcpType: String? = nil) {
        self.foundation = foundation
        self.component = component
        self.transport = transport
        self.priority = priority
        self.address = address
        self.port = port
        self.type = type
        self.relatedAddress = relatedAddress
        self.relatedPort = relatedPort
        self.tcpType = tcpType
    }

    /// Parses `candidate:...` or `a=candidate:...` (case-insensitive prefix, extra spaces tolerated).
    public init(sdp: String) throws(IceError) {
        var text = Substring(sdp.trimmingWhitespace())
        for prefix in ["a=", "candidate:"] where text.lowercased().hasPrefix(prefix) {
            text = text.dropFirst(prefix.count)
        }
        let f = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        func bad(_ why: String) -> IceError { .malformedCandidate(sdp: sdp, reason: why) }
        guard f.count >= 8 else { throw bad("expected at least 8 fields, got \(f.count)") }
        guard let component = UInt32(f[1]) else { throw bad("component '\(f[1])' is not a number") }
        guard let transport = IceCandidateTransport(rawValue: f[2].lowercased()) else {
            throw bad("unknown transport '\(f[2])'")
        }
        guard let priority = UInt32(f[3]) else { throw bad("priority '\(f[3])' is not a 32-bit number") }
        guard let port = UInt16(f[5]) else { throw bad("port '\(f[5])' is not a port number") }
        guard f[6].lowercased() == "typ" else { throw bad("expected 'typ', got '\(f[6])'") }
        guard let type = IceCandidateType(rawValue: f[7].lowercased()) else { throw bad("unknown type '\(f[7])'") }
        self.init(foundation: f[0], component: component, transport: transport, priority: priority,
                  address: f[4], port: port, type: type)
        var i = 8
        while i + 1 < f.count {
            switch f[i].lowercased() {
            case "raddr": relatedAddress = f[i + 1]
            case "rport":
                guard let p = UInt16(f[i + 1]) else { throw bad("rport '\(f[i + 1])' is not a port number") }
                relatedPort = p
            case "tcptype": tcpType = f[i + 1].lowercased()
            default: break // extensions (generation, ufrag, network-id...) are ignored
            }
            i += 2
        }
    }

    /// The attribute value without `a=`: `candidate:1 1 udp 2013266431 127.0.0.1 5000 typ host`.
    public var sdp: String {
        var s = "candidate:\(foundation) \(component) \(transport.rawValue.uppercased()) \(priority) \(address) \(port) typ \(type.rawValue)"
        if let relatedAddress, let relatedPort { s += " raddr \(relatedAddress) rport \(relatedPort)" }
        if let tcpType { s += " tcptype \(tcpType)" }
        return s
    }

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

    public var description: String { "\(type.rawValue) \(transport.rawValue) \(address):\(port)" }
}

/// Candidate type (RFC 8445 §5.1.1).
public enum IceCandidateType: String, Sendable, Codable, CaseIterable {
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
public enum IceCandidateTransport: String, Sendable, Codable, CaseIterable {
    /// UDP.
    case udp
    /// TCP (RFC 6544; the `tcpType` says active/passive/so).
    case tcp
}

extension String {
    func trimmingWhitespace() -> String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return String(s)
    }
}
