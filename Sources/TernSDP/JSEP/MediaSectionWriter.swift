import TernCore
/// Builds the m= sections and session header JSEP writes (RFC 9429 §5.2.1 and §5.3.1 list the lines).
struct MediaSectionWriter {
    let credentials: ICECredentials
    let configuration: JSEPConfiguration
    let setup: SetupRole
    let candidates: [ICECandidate]
    let endOfCandidates: Bool

    /// Transport lines shared by every bundled section: ICE and DTLS (RFC 8839 §5.4, RFC 8842 §5).
    private func transport(into section: inout MediaDescription, withCandidates: Bool) {
        section.append(Attribute(name: "ice-ufrag", value: credentials.ufrag))
        section.append(Attribute(name: "ice-pwd", value: credentials.pwd))
        if !configuration.iceOptions.isEmpty {
            section.append(Attribute(name: "ice-options", value: configuration.iceOptions.joined(separator: " ")))
        }
        for fingerprint in configuration.fingerprints { section.append(fingerprint) }
        section.append(setup)
        if withCandidates {
            for candidate in candidates { section.append(candidate) }
            if endOfCandidates { section.appendFlag("end-of-candidates") }
        }
    }

    /// An active RTP section.
    func rtpSection(kind: MediaKind, proto: String = "UDP/TLS/RTP/SAVPF", mid: String, direction: RTPDirection,
                    codecs: [RTPCodec], extensions: [ExtensionMap], sender: SenderParameters?, rtcpReducedSize: Bool,
                    rtcpMuxOnly: Bool, withCandidates: Bool) -> MediaDescription {
        var section = MediaDescription(mediaLine: MediaLine(media: kind.rawValue, port: 9, proto: proto,
                                                            formats: codecs.map { String($0.payloadType) }))
        section.lines.append(.connection(ConnectionData()))
        section.append(RTCPAttribute(port: 9, connection: ConnectionData()))
        transport(into: &section, withCandidates: withCandidates)
        section.append(Attribute(name: "mid", value: mid))
        for ext in extensions { section.append(ext) }
        section.appendFlag(direction.rawValue)
        let sends = direction.sends
        if let sender, sends { section.append(MediaStreamId(streamId: sender.streamId, trackId: sender.trackId)) }
        section.appendFlag("rtcp-mux")
        if rtcpMuxOnly { section.appendFlag("rtcp-mux-only") }
        if rtcpReducedSize { section.appendFlag("rtcp-rsize") }
        for codec in codecs {
            section.append(RTPMap(payloadType: codec.payloadType, encodingName: codec.name, clockRate: codec.clockRate,
                                  channels: codec.channels))
            for fb in codec.feedback { section.append(RTCPFeedback(payloadType: codec.payloadType, feedback: fb)) }
            if !codec.parameters.isEmpty { section.append(FormatParameters(payloadType: codec.payloadType, text: codec.parameters)) }
        }
        if let sender, sends {
            if let rtx = sender.rtxSSRC, codecs.contains(where: \.isRTX) {
                section.append(SSRCGroup(semantics: "FID", ssrcs: [sender.ssrc, rtx]))
            }
            let ssrcs = [sender.ssrc] + (codecs.contains(where: \.isRTX) ? sender.rtxSSRC.map { [$0] } ?? [] : [])
            for ssrc in ssrcs {
                section.append(SSRCAttribute(ssrc: ssrc, name: "cname", value: sender.cname))
                section.append(SSRCAttribute(ssrc: ssrc, name: "msid", value: "\(sender.streamId) \(sender.trackId)"))
            }
        }
        return section
    }

    /// An active data channel section (RFC 8841 §4–6).
    /// `withSCTPInit`: carry our INIT (`a=sctp-init`), if we have one: in offers, and in answers
    /// to an offer that carried one (draft-hancke-tsvwg-snap §5.2–5.3).
    func dataSection(proto: String = "UDP/DTLS/SCTP", mid: String, withCandidates: Bool,
                     withSCTPInit: Bool = true) -> MediaDescription {
        var section = MediaDescription(mediaLine: MediaLine(media: "application", port: 9, proto: proto,
                                                            formats: ["webrtc-datachannel"]))
        section.lines.append(.connection(ConnectionData()))
        transport(into: &section, withCandidates: withCandidates)
        section.append(Attribute(name: "mid", value: mid))
        section.append(Attribute(name: "sctp-port", value: String(configuration.sctpPort)))
        section.append(Attribute(name: "max-message-size", value: String(configuration.maxMessageSize)))
        if let packet = configuration.sctpMaxPacket {
            section.append(Attribute(name: JSEPConfiguration.sctpMaxPacketAttribute, value: String(packet)))
        }
        if withSCTPInit, let chunk = configuration.sctpInit {
            section.append(Attribute(name: SCTPInitAttribute.name, value: SCTPInitAttribute.value(for: chunk)))
        }
        return section
    }

    /// A rejected or stopped section: port 0, mid kept (RFC 3264 §6, RFC 9429 §5.2.2).
    static func rejectedSection(_ line: MediaLine, mid: String?) -> MediaDescription {
        var mediaLine = line
        mediaLine.port = 0
        mediaLine.portCount = nil
        var section = MediaDescription(mediaLine: mediaLine)
        section.lines.append(.connection(ConnectionData()))
        if let mid { section.append(Attribute(name: "mid", value: mid)) }
        if line.isRTP { section.appendFlag(RTPDirection.inactive.rawValue) }
        return section
    }

    /// The session-level lines: o=, s=, t=, the BUNDLE group (RFC 9143 §7.1).
    static func session(id: UInt64, version: UInt64, bundle: [String], extmapAllowMixed: Bool) -> SessionDescription {
        var description = SessionDescription(origin: Origin(sessionId: String(id), sessionVersion: String(version)))
        if !bundle.isEmpty { description.append(Group(semantics: "BUNDLE", mids: bundle)) }
        if extmapAllowMixed { description.appendFlag("extmap-allow-mixed") }
        description.append(Attribute(name: "msid-semantic", value: "WMS *"))
        return description
    }
}
