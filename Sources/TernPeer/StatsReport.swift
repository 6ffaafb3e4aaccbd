import Foundation

/// A W3C `RTCStatsReport`: entries keyed by id, each with a `type` (`candidate-pair`,
/// `inbound-rtp`, ...) and the standard fields of that type (W3C webrtc-stats).
public struct StatsReport: Sendable, Encodable {
    /// One stats object.
    public struct Entry: Sendable, Encodable {
        public var id: String
        public var type: String
        /// Milliseconds since the Unix epoch (W3C `DOMHighResTimeStamp`).
        public var timestamp: Double
        public var values: [String: StatsValue]

        public init(id: String, type: String, timestamp: Double, values: [String: StatsValue]) {
            self.id = id
            self.type = type
            self.timestamp = timestamp
            self.values = values
        }

        /// A field's value, if present.
        public subscript(_ name: String) -> StatsValue? { values[name] }

        private struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(_ string: String) { stringValue = string }
            init?(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        /// Encodes flat, as browsers report it: `{"id":…,"type":…,"timestamp":…,"packetsReceived":…}`.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(id, forKey: Key("id"))
            try container.encode(type, forKey: Key("type"))
            try container.encode(timestamp, forKey: Key("timestamp"))
            for name in values.keys.sorted() {
                guard let value = values[name] else { continue }
                try container.encode(value, forKey: Key(name))
            }
        }
    }

    /// Every entry, in a stable order.
    public var entries: [Entry]

    public init(entries: [Entry]) { self.entries = entries }

    /// The entries of one W3C type.
    public func entries(ofType type: String) -> [Entry] { entries.filter { $0.type == type } }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for entry in entries { try container.encode(entry) }
    }

    /// The report as one JSON array.
    public func jsonString() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(self) else { return "[]" }
        return String(decoding: data, as: UTF8.self)
    }
}

/// One stats field.
public enum StatsValue: Sendable, Encodable, Equatable, CustomStringConvertible {
    case string(String)
    case int(Int64)
    case double(Double)
    case bool(Bool)

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case let .string(value): try container.encode(value)
        case let .int(value): try container.encode(value)
        case let .double(value): try container.encode(value)
        case let .bool(value): try container.encode(value)
        }
    }

    /// The value as a number, when it is one.
    public var number: Double? {
        switch self {
        case let .int(value): Double(value)
        case let .double(value): value
        default: nil
        }
    }

    public var description: String {
        switch self {
        case let .string(value): value
        case let .int(value): String(value)
        case let .double(value): String(value)
        case let .bool(value): String(value)
        }
    }
}
