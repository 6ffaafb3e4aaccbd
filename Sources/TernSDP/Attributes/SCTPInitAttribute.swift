import Foundation

/// `a=sctp-init` (draft-hancke-tsvwg-snap §4): the INIT chunk an endpoint's SCTP association
/// would send, header included, in base64 (RFC 4648 §4). Media level, on the data section.
public enum SCTPInitAttribute {
    public static let name = "sctp-init"

    /// Why a value is not an INIT chunk.
    public struct Invalid: Error, CustomStringConvertible {
        public var description: String
    }

    /// The attribute's value for `chunk`.
    public static func value(for chunk: [UInt8]) -> String { Data(chunk).base64EncodedString() }

    /// The chunk in `value`. Only its outline is checked here (an INIT's type and a length that
    /// fits); the SCTP layer reads the rest.
    public static func chunk(in value: String) throws(Invalid) -> [UInt8] {
        guard let data = Data(base64Encoded: value) else { throw Invalid(description: "a=sctp-init is not base64") }
        let bytes = [UInt8](data)
        guard bytes.count >= 20, bytes[0] == 1, Int(bytes[2]) << 8 | Int(bytes[3]) <= bytes.count else {
            throw Invalid(description: "a=sctp-init is not an SCTP INIT chunk (\(bytes.count) bytes)")
        }
        return bytes
    }
}

extension AttributeContainer {
    /// The INIT chunk of `a=sctp-init`, when present and well formed.
    public var sctpInit: [UInt8]? {
        firstValue(named: SCTPInitAttribute.name).flatMap { try? SCTPInitAttribute.chunk(in: $0) }
    }
}
