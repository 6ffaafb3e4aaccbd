/// An ICE candidate line (RFC 8839 §5.1):
///
///     candidate:<foundation> <component-id> <transport> <priority> <address> <port> typ <type>
///               [raddr <address>] [rport <port>] *(<extension name> <extension value>)
///
/// Known extensions (`tcptype`, `generation`, `ufrag`, `network-id`, `network-cost`, and `raddr`/`rport`)
/// are exposed as typed properties; all extensions are kept in order so the line round-trips.
public struct ICECandidate: SDPAttributeValue, SDPBytesParsable, Hashable {
    public static let attributeName = "candidate"

    /// One `name value` pair after `typ <type>`, in written order.
    public struct Extension: Sendable, Hashable {
        /// Extension attribute name.
        public var name: String
        /// Extension attribute value.
        public var value: String
        /// Creates an extension pair.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Foundation (1–32 ice-chars).
    public var foundation: String
    /// Component id: 1 = RTP, 2 = RTCP.
    public var component: Int
    /// Transport as written (`udp`, `UDP`, `tcp`).
    public var transport: String
    /// Priority (RFC 8445 §5.1.2).
    public var priority: UInt32
    /// Connection address: IPv4, IPv6, or an mDNS `.local` name.
    public var address: String
    /// Port.
    public var port: Int
    /// Candidate type as written: `host`, `srflx`, `prflx`, `relay`.
    public var type: String
    /// Extensions after the type, including `raddr`/`rport`, in written order.
    public var extensions: [Extension]

    /// Creates a candidate.
    public init(foundation: String, component: Int = 1, transport: String = "udp", priority: UInt32,
                address: String, port: Int, type: String, extensions: [Extension] = []) {
        self.foundation = foundation
        self.component = component
        self.transport = transport
        self.priority = priority
        self.address = address
        self.port = port
        self.type = type
        self.extensions = extensions
    }

    /// Parses `candidate:...`, `a=candidate:...` or the value alone (what `RTCIceCandidate.candidate` holds).
    public init(parsing text: String) throws(SDPValueError) {
        self = try Tokens.withBytes(text) { bytes throws(SDPValueError) in
            var value = Tokens.trimmed(bytes)
            if Tokens.hasPrefix(value, "a=") { value = value.dropFirst(2) }
            if Tokens.hasPrefix(value, "candidate:") { value = value.dropFirst("candidate:".utf8.count) }
            return try ICECandidate(bytes: value)
        }
    }

    public init(attributeValue: Substring) throws(SDPValueError) {
        self = try Tokens.withBytes(attributeValue) { bytes throws(SDPValueError) in try Self(bytes: bytes) }
    }

    init(bytes: SDPBytes) throws(SDPValueError) {
        var list: [Extension] = []
        let fields = try Self.scan(bytes) { name, value in
            list.append(Extension(name: Tokens.string(name), value: Tokens.string(value)))
        }
        foundation = Tokens.string(fields.foundation)
        component = fields.component
        transport = Tokens.string(fields.transport)
        priority = fields.priority
        address = Tokens.string(fields.address)
        port = fields.port
        type = Tokens.string(fields.type)
        extensions = list
    }

    static func validate(bytes: SDPBytes) throws(SDPValueError) { _ = try scan(bytes) { _, _ in } }

    /// The fields of a candidate line, still as bytes.
    private struct Fields {
        var foundation: SDPBytes
        var component: Int
        var transport: SDPBytes
        var priority: UInt32
        var address: SDPBytes
        var port: Int
        var type: SDPBytes
    }

    /// Checks the RFC 8839 §5.1 grammar and hands each extension `name value` pair to `body`.
    private static func scan(_ bytes: SDPBytes, _ body: (SDPBytes, SDPBytes) -> Void) throws(SDPValueError) -> Fields {
        var fields = FieldScanner(bytes)
        guard let foundation = fields.next(), let componentText = fields.next(), let transport = fields.next(),
              let priorityText = fields.next(), let address = fields.next(), let portText = fields.next(),
              let typ = fields.next(), let type = fields.next() else {
            throw SDPValueError("expected `<foundation> <component> <transport> <priority> <address> <port> typ <type>`")
        }
        guard let component = Tokens.int(componentText), component <= 256 else { throw SDPValueError("component id is not a number") }
        guard let priority = Tokens.number(priorityText, as: UInt32.self) else { throw SDPValueError("priority is not a 32-bit number") }
        guard let port = Tokens.int(portText), port <= 65535 else { throw SDPValueError("port is not a number between 0 and 65535") }
        guard Tokens.equals(typ, "typ") else { throw SDPValueError("expected `typ` after the port") }
        while let name = fields.next() {
            guard let value = fields.next() else {
                throw SDPValueError("extension attribute `\(Tokens.string(name))` has no value")
            }
            if Tokens.equals(name, "rport"), Tokens.int(value).map({ $0 <= 65535 }) != true {
                throw SDPValueError("rport is not a number between 0 and 65535")
            }
            body(name, value)
        }
        return Fields(foundation: foundation, component: component, transport: transport, priority: priority,
                      address: address, port: port, type: type)
    }

    public var attributeValue: String {
        var out = "\(foundation) \(component) \(transport) \(priority) \(address) \(port) typ \(type)"
        for ext in extensions { out += " \(ext.name) \(ext.value)" }
        return out
    }

    /// The `candidate:...` form used by trickle ICE and `RTCIceCandidate.candidate`.
    public var candidateString: String { "candidate:\(attributeValue)" }

    /// The value of the first extension called `name`.
    public func extensionValue(_ name: String) -> String? { extensions.first { $0.name == name }?.value }

    /// `raddr`: related address for reflexive and relayed candidates.
    public var relatedAddress: String? { extensionValue("raddr") }
    /// `rport`: related port.
    public var relatedPort: Int? { extensionValue("rport").flatMap { Tokens.int($0) } }
    /// `tcptype` (RFC 6544 §4.5): `active`, `passive` or `so`.
    public var tcpType: String? { extensionValue("tcptype") }
    /// `generation` (Chromium extension).
    public var generation: Int? { extensionValue("generation").flatMap { Tokens.int($0) } }
    /// `ufrag` (Chromium extension; RFC 8840 uses it for trickle).
    public var ufrag: String? { extensionValue("ufrag") }
    /// `network-id` (Chromium extension).
    public var networkId: Int? { extensionValue("network-id").flatMap { Tokens.int($0) } }
    /// `network-cost` (Chromium extension).
    public var networkCost: Int? { extensionValue("network-cost").flatMap { Tokens.int($0) } }
    /// True when the transport is UDP (any case).
    public var isUDP: Bool { transport.lowercased() == "udp" }
}
