import TernPeer

/// `--stats-interval`: the whole W3C stats report (`PeerConnection.getStats()`) of each
/// participant, every so often — what chrome://webrtc-internals shows, as JSON lines
/// (`{"category":"w3cstats","who":…,"report":[{"id":…,"type":…,…}, …]}`) or as text.
enum StatsDump {
    /// Dumps every `interval` until the returned task is cancelled.
    static func every(_ interval: Duration, participants: [CallParticipant], timeline: Timeline) -> Task<Void, Never> {
        Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard !Task.isCancelled else { return }
                for participant in participants { dump(participant, timeline: timeline) }
            }
        }
    }

    static func dump(_ participant: CallParticipant, timeline: Timeline) {
        guard let peer = participant.snapshot.peer else { return }
        let report = peer.getStats()
        let title = "\(participant.name): W3C stats report, \(report.entries.count) entries"
        let entries = report.entries.map { entry -> JSONValue in
            var object: [String: JSONValue] = ["id": .string(entry.id), "type": .string(entry.type),
                                               "timestamp": .number(entry.timestamp)]
            for (name, value) in entry.values { object[name] = json(value) }
            return .object(object)
        }
        let text = report.entries.map { entry in
            let fields = entry.values.keys.sorted().compactMap { name in entry[name].map { "\(name)=\($0)" } }
            return "\(entry.type) \(entry.id): " + fields.joined(separator: " ")
        }.joined(separator: "\n")
        timeline.block("w3cstats", title, text, fields: ["who": .string(participant.name), "report": .array(entries)],
                       jsonCarriesText: false)
    }

    private static func json(_ value: StatsValue) -> JSONValue {
        switch value {
        case let .string(text): .string(text)
        case let .int(number): .int(Int(number))
        case let .double(number): .number(number)
        case let .bool(flag): .bool(flag)
        }
    }
}
