import Foundation

/// Number formatting for the report: exact values for machines, short ones for people.
enum NumberText {
    /// The shortest text that reads back as exactly `value` (`Double(text) == value`).
    static func exact(_ value: Double) -> String {
        "\(value)"
    }

    /// `value` with a fixed number of decimals (negative zero printed as zero).
    static func fixed(_ value: Double, decimals: Int) -> String {
        String(format: "%.\(max(0, min(decimals, 9)))f", value + 0.0 == 0 ? 0 : value)
    }

    /// `value` for a table cell: integers without decimals, others with up to three.
    static func readable(_ value: Double) -> String {
        guard value.isFinite else { return "\(value)" }
        if value == value.rounded(), abs(value) < 1e15 { return fixed(value, decimals: 0) }
        var text = fixed(value, decimals: 3)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }
}
