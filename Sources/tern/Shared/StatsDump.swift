import Foundation
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
        // The report's own JSON form (what browsers report), read back as values to log.
        let entries: [JSONValue]
        if let data = peer.getStats().jsonString().data(using: .utf8),
           case let .array(values) = (try? JSONDecoder().decode(JSONValue.self, from: data)) ?? .null {
            entries = values
        } else {
            entries = []
        }
        let text = entries.map { entry -> String in
            guard case let .object(fields) = entry else { return "" }
            let head = [fields["type"], fields["id"]].compactMap { $0?.plainText }.joined(separator: " ")
            let rest = fields.keys.sorted().filter { !["type", "id", "timestamp"].contains($0) }
                .compactMap { name in fields[name]?.plainText.map { "\(name)=\($0)" } }
            return head + ": " + rest.joined(separator: " ")
        }.joined(separator: "\n")
        timeline.block("w3cstats", "\(participant.name): W3C stats report, \(entries.count) entries", text,
                       fields: ["who": .string(participant.name), "report": .array(entries)], jsonCarriesText: false)
    }
}
