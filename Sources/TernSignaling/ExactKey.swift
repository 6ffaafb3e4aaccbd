/// A user id, call id or queue name as a dictionary key, equal only to the same UTF-8 bytes.
///
/// Swift's `String` equality is canonical equivalence: `"Ame\u{301}lie" == "Amélie"`. Tokens
/// sign bytes, so keying on `String` would let a token for one spelling register into the
/// device set of the other.
struct ExactKey: Hashable, Comparable, Codable, Sendable {
    let bytes: [UInt8]

    init(_ text: String) { bytes = Array(text.utf8) }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    static func < (a: ExactKey, b: ExactKey) -> Bool { a.bytes.lexicographicallyPrecedes(b.bytes) }
}

extension String {
    /// Equal UTF-8 bytes, not canonical equivalence (see `ExactKey`).
    func isExactly(_ other: String) -> Bool { utf8.elementsEqual(other.utf8) }
}
