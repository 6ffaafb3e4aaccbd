import Foundation
/// A small JSON value for the debug tool's line-oriented output, serialized with stable key
/// order so that `--json` output is diffable.
enum JSONValue: Sendable, Equatable {
    case string(String)
    case number(Double)
    case int(Int)
    case bool(Bool)
    case array([JSONValue])
    case object([String: JSONValue])
    case null

    var serialized: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case let .string(value): JSONValue.writeString(value, to: &out)
        case let .number(value):
            if value.isFinite {
                out += value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
            } else {
                out += "null"
            }
        case let .int(value): out += String(value)
        case let .bool(value): out += value ? "true" : "false"
        case .null: out += "null"
        case let .array(values):
            out += "["
            for (index, value) in values.enumerated() {
                if index > 0 { out += "," }
                value.write(to: &out)
            }
            out += "]"
        case let .object(fields):
            out += "{"
            for (index, key) in fields.keys.sorted().enumerated() {
                if index > 0 { out += "," }
                JSONValue.writeString(key, to: &out)
                out += ":"
                fields[key]?.write(to: &out)
            }
            out += "}"
        }
    }

    /// RFC 8259 §7 string escaping.
    private static func writeString(_ value: String, to out: inout String) {
        out += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20: out += String(format: "\\u%04x", c.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
