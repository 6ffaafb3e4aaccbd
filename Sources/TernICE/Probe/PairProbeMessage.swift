import TernCore

/// Tern's round-trip probe on the selected candidate pair (Docs/ICE.md, "Selected pair RTT").
///
/// Why not STUN: libnice 0.1.21 answers a Binding request we send on the pair, but our own
/// libnice then drops the answer ("Valid STUN response for which we don't have a request,
/// ignoring") instead of passing it to the receive callback, and it keeps the timing of its
/// own checks private. So Tern peers answer each other's probes themselves, in the data path.
///
/// Wire form, 36 bytes:
///
///     0      1      2      3      4 ............ 15  16 ............ 35
///     0xFE   'T'    'p'    kind   probe ID (random)   MAC
///
/// The first byte 0xFE is in the range RFC 7983 §7 tells every WebRTC demultiplexer to drop
/// (not STUN 0–3, ZRTP 16–19, DTLS 20–63, TURN channel 64–79, RTP/RTCP 128–191), and libnice
/// only treats bytes starting with two zero bits as STUN, so the probe passes through both
/// agents as data and a non-Tern peer discards it. `kind` is 1 (request) or 2 (response).
/// MAC = first 20 bytes of HMAC-SHA256(key, bytes 0..<16), keyed — like STUN
/// MESSAGE-INTEGRITY in ICE (RFC 8445 §7.2.2) — with the answering side's ICE password, so
/// only the peer that holds it can produce an answer that counts.
struct PairProbeMessage: Sendable, Equatable {
    enum Kind: UInt8, Sendable { case request = 1, response = 2 }

    /// Why bytes are not an acceptable probe.
    enum ParseError: Error, Equatable, CustomStringConvertible {
        case notAProbe
        case badKind(UInt8)
        case badMAC

        var description: String {
            switch self {
            case .notAProbe: "not a Tern pair probe (size or marker)"
            case let .badKind(k): "Tern pair probe with unknown kind \(k)"
            case .badMAC: "Tern pair probe with a MAC that does not match the ICE password"
            }
        }
    }

    static let marker: [UInt8] = [0xFE, 0x54, 0x70] // 0xFE 'T' 'p'
    static let idCount = 12
    static let macCount = 20
    static let count = 4 + idCount + macCount

    var kind: Kind
    /// Random per request; the response echoes it.
    var id: [UInt8]

    /// Cheap test on the receive path before anything is copied.
    static func looksLikeProbe(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count == count && bytes[0] == marker[0] && bytes[1] == marker[1] && bytes[2] == marker[2]
    }

    func encode(key: [UInt8]) -> [UInt8] {
        var bytes = Self.marker + [kind.rawValue] + id.prefix(Self.idCount)
        bytes += repeatElement(0, count: 4 + Self.idCount - bytes.count)
        return bytes + HMACSHA256.authenticate(bytes, key: key).prefix(Self.macCount)
    }

    /// Parses and authenticates `bytes` with `key` (the password of the side that sent them).
    init(parsing bytes: [UInt8], key: [UInt8]) throws(ParseError) {
        guard bytes.count == Self.count, Array(bytes[0..<3]) == Self.marker else { throw .notAProbe }
        guard let kind = Kind(rawValue: bytes[3]) else { throw .badKind(bytes[3]) }
        let mac = HMACSHA256.authenticate(bytes[0..<16], key: key).prefix(Self.macCount)
        guard HMACSHA256.equal(mac, bytes[16...]) else { throw .badMAC }
        self.kind = kind
        id = Array(bytes[4..<16])
    }

    init(kind: Kind, id: [UInt8]) {
        self.kind = kind
        self.id = id
    }
}
