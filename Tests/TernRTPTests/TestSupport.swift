import Foundation
import TernCore

/// Loads `Fixtures/<name>.hex` from the test bundle.
func fixture(_ name: String) throws -> [UInt8] {
    guard let url = Bundle.module.url(forResource: name, withExtension: "hex", subdirectory: "Fixtures") else {
        throw FixtureError.missing(name)
    }
    let text = try String(contentsOf: url, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    guard let bytes = Hex.decode(text) else { throw FixtureError.notHex(name) }
    return bytes
}

enum FixtureError: Error {
    case missing(String)
    case notHex(String)
}

/// Bytes from a hex literal in a test (spaces allowed).
func hex(_ text: String) -> [UInt8] {
    Hex.decode(text.replacingOccurrences(of: " ", with: "").replacingOccurrences(of: "\n", with: "")) ?? []
}
