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

extension JSONValue: Decodable {
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Int.self) { self = .int(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    /// A scalar as text (`1`, `true`, `abc`); nil for arrays, objects and null.
    var plainText: String? {
        switch self {
        case let .string(value): value
        case let .int(value): String(value)
        case let .number(value): String(value)
        case let .bool(value): String(value)
        case .array, .object, .null: nil
        }
    }
}
