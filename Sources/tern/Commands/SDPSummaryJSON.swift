import TernSDP

/// `tern sdp show --json`: what `SDPSummary` renders as text, as one JSON object.
enum SDPSummaryJSON {
    static func summary(_ description: SessionDescription) -> JSONValue {
        .object([
            "sessionId": .string(String(description.origin.sessionId)),
            "sessionVersion": .string(String(description.origin.sessionVersion)),
            "iceLite": .bool(description.isICELite),
            "groups": .array(description.groups.map { .object(["semantics": .string($0.semantics),
                                                                "mids": .array($0.mids.map { .string($0) })]) }),
            "sections": .array(description.media.enumerated().map { section($1, index: $0, in: description) }),
        ])
    }

    private static func section(_ media: MediaDescription, index: Int, in description: SessionDescription) -> JSONValue {
        var object: [String: JSONValue] = [
            "index": .int(index),
            "kind": .string(media.kind),
            "mid": media.mid.map { .string($0) } ?? .null,
            "protocol": .string(media.mediaLine.proto),
            "port": .int(Int(media.mediaLine.port)),
            "rejected": .bool(media.isRejected && !media.isBundleOnly),
            "bundleOnly": .bool(media.isBundleOnly),
            "direction": .string((media.direction ?? description.direction ?? .sendrecv).rawValue),
            "codecs": .array(RTPCodec.codecs(in: media).map { codec in
                .object(["payloadType": .int(Int(codec.payloadType)), "name": .string(codec.name),
                         "clockRate": .int(codec.clockRate), "channels": codec.channels.map { .int($0) } ?? .null,
                         "parameters": .string(codec.parameters), "feedback": .array(codec.feedback.map { .string($0) })])
            }),
            "extensions": .array(media.extensionMaps.map { .object(["id": .int($0.id), "uri": .string($0.uri)]) }),
            "iceUfrag": (media.iceUfrag ?? description.iceUfrag).map { .string($0) } ?? .null,
            "icePwd": (media.icePwd ?? description.icePwd).map { .string($0) } ?? .null,
            "iceOptions": .array((media.iceOptions.isEmpty ? description.iceOptions : media.iceOptions).map { .string($0) }),
            "fingerprints": .array((media.fingerprints.isEmpty ? description.fingerprints : media.fingerprints)
                .map { .string($0.attributeValue) }),
            "setup": (media.setup ?? description.setup).map { .string($0.rawValue) } ?? .null,
            "candidates": .array(media.candidates.map { candidate in
                .object(["type": .string("\(candidate.type)"), "transport": .string("\(candidate.transport)"),
                         "address": .string(candidate.address), "port": .int(Int(candidate.port)),
                         "priority": .int(Int(candidate.priority)),
                         "relatedAddress": candidate.relatedAddress.map { .string($0) } ?? .null,
                         "relatedPort": candidate.relatedPort.map { .int(Int($0)) } ?? .null])
            }),
            "endOfCandidates": .bool(media.endOfCandidates),
            "ssrcs": .array(Array(Set(media.ssrcAttributes.map(\.ssrc))).sorted().map { .int(Int($0)) }),
        ]
        if let port = media.sctpPort {
            object["sctpPort"] = .int(port)
            object["maxMessageSize"] = .int(Int(clamping: media.maxMessageSize ?? 65_536))
        }
        return .object(object)
    }
}
