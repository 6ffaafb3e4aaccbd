/// Typed read access and simple edits for the attributes of a session or a media section.
public protocol AttributeContainer {
    /// The lines of this level, in order.
    var lines: [SDPLine] { get set }
}

extension AttributeContainer {
    /// All attributes, in order.
    public var attributes: [Attribute] { lines.compactMap(\.attribute) }

    /// The attributes called `name`, in order.
    public func attributes(named name: String) -> [Attribute] {
        lines.compactMap { line in
            guard case .attribute(let a) = line, a.isNamed(name) else { return nil }
            return a
        }
    }

    /// The value of the first attribute called `name`.
    public func firstValue(named name: String) -> String? {
        for line in lines {
            if case .attribute(let a) = line, a.isNamed(name) { return a.value ?? "" }
        }
        return nil
    }

    /// True when an attribute called `name` is present (flag or not).
    public func hasFlag(_ name: String) -> Bool {
        lines.contains { if case .attribute(let a) = $0 { a.isNamed(name) } else { false } }
    }

    /// Every attribute of type `T` that parses, in order.
    public func typed<T: SDPAttributeValue>(_ type: T.Type) -> [T] {
        lines.compactMap { line in
            guard case .attribute(let a) = line else { return nil }
            return a.parsed(as: T.self)
        }
    }

    /// Appends an attribute line.
    public mutating func append(_ attribute: Attribute) { lines.append(.attribute(attribute)) }

    /// Appends a typed attribute line.
    public mutating func append<T: SDPAttributeValue>(_ typed: T) { lines.append(.attribute(Attribute(typed))) }

    /// Appends a flag attribute such as `a=rtcp-mux`.
    public mutating func appendFlag(_ name: String) { lines.append(.attribute(Attribute(name: name))) }

    /// Removes every attribute called `name`.
    public mutating func removeAttributes(named name: String) {
        lines.removeAll { if case .attribute(let a) = $0 { a.isNamed(name) } else { false } }
    }

    // MARK: Typed accessors for the attributes WebRTC uses.

    /// `a=mid` (RFC 5888 §4; RFC 9143 §7.1 for BUNDLE).
    public var mid: String? { firstValue(named: "mid") }
    /// `a=rtpmap` lines (RFC 8866 §6.6).
    public var rtpMaps: [RTPMap] { typed(RTPMap.self) }
    /// `a=fmtp` lines (RFC 8866 §6.15).
    public var formatParameters: [FormatParameters] { typed(FormatParameters.self) }
    /// `a=rtcp-fb` lines (RFC 4585 §4.2).
    public var rtcpFeedback: [RTCPFeedback] { typed(RTCPFeedback.self) }
    /// `a=extmap` lines (RFC 8285 §8).
    public var extensionMaps: [ExtensionMap] { typed(ExtensionMap.self) }
    /// `a=group` lines (RFC 5888 §5).
    public var groups: [Group] { typed(Group.self) }
    /// `a=msid` lines (RFC 8830 §2).
    public var msids: [MediaStreamId] { typed(MediaStreamId.self) }
    /// `a=ssrc` lines (RFC 5576 §4.1).
    public var ssrcAttributes: [SSRCAttribute] { typed(SSRCAttribute.self) }
    /// `a=ssrc-group` lines (RFC 5576 §4.2).
    public var ssrcGroups: [SSRCGroup] { typed(SSRCGroup.self) }
    /// `a=rtcp` (RFC 3605).
    public var rtcp: RTCPAttribute? { typed(RTCPAttribute.self).first }
    /// `a=candidate` lines (RFC 8839 §5.1).
    public var candidates: [ICECandidate] { typed(ICECandidate.self) }
    /// `a=fingerprint` lines (RFC 8122 §5).
    public var fingerprints: [Fingerprint] { typed(Fingerprint.self) }
    /// `a=setup` (RFC 4145 §4).
    public var setup: SetupRole? { typed(SetupRole.self).first }
    /// `a=rid` lines (RFC 8851).
    public var rids: [RID] { typed(RID.self) }
    /// `a=simulcast` (RFC 8853).
    public var simulcast: Simulcast? { typed(Simulcast.self).first }
    /// `a=ice-ufrag` (RFC 8839 §5.4).
    public var iceUfrag: String? { firstValue(named: "ice-ufrag") }
    /// `a=ice-pwd` (RFC 8839 §5.4).
    public var icePwd: String? { firstValue(named: "ice-pwd") }
    /// `a=ice-options` tokens such as `trickle`, `renomination` (RFC 8839 §5.6).
    public var iceOptions: [String] {
        attributes(named: "ice-options").flatMap { Tokens.withBytes($0.value ?? "") { Tokens.fields($0).map(Tokens.string) } }
    }
    /// `a=end-of-candidates` (RFC 8840 §8.2).
    public var endOfCandidates: Bool { hasFlag("end-of-candidates") }
    /// `a=sctp-port` (RFC 8841 §5).
    public var sctpPort: Int? { firstValue(named: "sctp-port").flatMap { Tokens.int($0) } }
    /// `a=max-message-size` (RFC 8841 §6).
    public var maxMessageSize: UInt64? {
        firstValue(named: "max-message-size").flatMap { Tokens.number($0, as: UInt64.self) }
    }
    /// `a=x-tern-sctp-max-packet`: the largest SCTP packet (one DTLS record's plaintext) the
    /// writer reads whole. A Tern extension; peers that do not know it ignore it (RFC 8866 §5.13).
    public var sctpMaxPacket: Int? {
        firstValue(named: JSEPConfiguration.sctpMaxPacketAttribute).flatMap { Tokens.int($0) }
    }
    /// The direction attribute; nil when none is written (RFC 3264 §5.1 then means sendrecv).
    public var direction: RTPDirection? {
        for line in lines {
            if case .attribute(let a) = line, a.value == nil, let d = RTPDirection(rawValue: a.name) { return d }
        }
        return nil
    }
    /// `a=rtcp-mux` (RFC 5761 §5.1.1).
    public var rtcpMux: Bool { hasFlag("rtcp-mux") }
    /// `a=rtcp-mux-only` (RFC 8858).
    public var rtcpMuxOnly: Bool { hasFlag("rtcp-mux-only") }
    /// `a=rtcp-rsize` (RFC 5506).
    public var rtcpReducedSize: Bool { hasFlag("rtcp-rsize") }
    /// `a=extmap-allow-mixed` (RFC 8285 §6).
    public var extmapAllowMixed: Bool { hasFlag("extmap-allow-mixed") }
}
