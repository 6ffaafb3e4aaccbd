import Foundation
/// A JSON value for the debug tool's line-oriented output (`--json`), built field by field and
/// written by Foundation's `JSONEncoder` with sorted keys, so the output is diffable.
enum JSONValue: Sendable, Equatable {
    case string(String)
    case number(Double)
    case int(Int)
    case bool(Bool)
    case array([JSONValue])
    case object([String: JSONValue])
    case null

    /// The value as one line of JSON: Foundation's encoder, keys sorted, slashes unescaped.
    var serialized: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }
}

extension JSONValue: Encodable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case let .string(value): try container.encode(value)
        case let .number(value):
            // Whole numbers as integers (`3`, not `3.0`); infinities and NaN as null.
            if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
                try container.encode(Int64(value))
            } else if value.isFinite {
                try container.encode(value)
            } else {
                try container.encodeNil()
            }
        case let .int(value): try container.encode(value)
        case let .bool(value): try container.encode(value)
        case let .array(values): try container.encode(values)
        case let .object(fields): try container.encode(fields)
        case .null: try container.encodeNil()
        }
    }
}
