/// A human-readable summary of a description, used by `tern sdp show`.
public enum SDPSummary {
    /// Renders sections, codecs, directions, ICE/DTLS parameters and candidates, one item per line.
    public static func render(_ description: SessionDescription) -> String {
        var out = "session \(description.origin.sessionId) version \(description.origin.sessionVersion)"
        if description.isICELite { out += " (ice-lite)" }
        out += "\n"
        for group in description.groups { out += "group \(group.semantics): \(group.mids.joined(separator: " "))\n" }
        for (index, media) in description.media.enumerated() {
            let status = media.isRejected ? (media.isBundleOnly ? " bundle-only" : " REJECTED (port 0)") : ""
            out += "[\(index)] \(media.kind) mid=\(media.mid ?? "-") \(media.mediaLine.proto) port \(media.mediaLine.port)\(status)\n"
            out += "    direction: \((media.direction ?? description.direction ?? .sendrecv).rawValue)\n"
            for codec in RTPCodec.codecs(in: media) {
                var line = "    codec \(codec.payloadType) \(codec.name)/\(codec.clockRate)"
                if let channels = codec.channels { line += "/\(channels)" }
                if !codec.parameters.isEmpty { line += " [\(codec.parameters)]" }
                if !codec.feedback.isEmpty { line += " fb: \(codec.feedback.joined(separator: ", "))" }
                out += line + "\n"
            }
            if let port = media.sctpPort { out += "    sctp-port \(port), max-message-size \(media.maxMessageSize.map(String.init) ?? "65536 (default)")\n" }
            for ext in media.extensionMaps { out += "    extmap \(ext.id) \(ext.uri)\n" }
            let ufrag = media.iceUfrag ?? description.iceUfrag
            let pwd = media.icePwd ?? description.icePwd
            if ufrag != nil || pwd != nil { out += "    ice ufrag=\(ufrag ?? "-") pwd=\(pwd ?? "-")" }
            let options = media.iceOptions.isEmpty ? description.iceOptions : media.iceOptions
            if !options.isEmpty { out += " options=\(options.joined(separator: ","))" }
            if ufrag != nil || pwd != nil { out += "\n" }
            for fp in media.fingerprints.isEmpty ? description.fingerprints : media.fingerprints {
                out += "    dtls fingerprint \(fp.attributeValue)\n"
            }
            if let setup = media.setup ?? description.setup { out += "    dtls setup \(setup.rawValue)\n" }
            for c in media.candidates {
                var line = "    candidate \(c.type) \(c.transport) \(c.address):\(c.port) priority \(c.priority)"
                if let raddr = c.relatedAddress { line += " from \(raddr):\(c.relatedPort.map(String.init) ?? "?")" }
                if let tcp = c.tcpType { line += " tcptype \(tcp)" }
                out += line + "\n"
            }
            if media.endOfCandidates { out += "    end-of-candidates\n" }
            let ssrcs = Array(Set(media.ssrcAttributes.map(\.ssrc))).sorted()
            if !ssrcs.isEmpty { out += "    ssrcs \(ssrcs.map(String.init).joined(separator: " "))\n" }
        }
        return out
    }
}
