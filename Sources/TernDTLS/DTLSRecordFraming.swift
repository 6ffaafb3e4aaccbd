import TernCore
/// A structural check of a datagram's DTLS records before OpenSSL sees it.
///
/// ```
///  0                   1                   2                   3
///  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |  ContentType  |    ProtocolVersion (0xFE..)   |     epoch     .
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// .  epoch (cont) |        sequence_number (48 bits)              .
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// .               |            length             |  fragment...  |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// ```
/// RFC 6347 §4.1: a datagram holds one or more whole records. Anything else (truncated
/// records, unknown content types, non-DTLS versions) is counted and dropped here.
///
/// Epoch-0 records are plaintext, and OpenSSL aborts the whole handshake on a handshake
/// message it cannot parse, so one stray datagram could kill an association. Records that no
/// correct peer sends are therefore dropped before OpenSSL (RFC 6347 §4.1.2.7: invalid records
/// are silently discarded): handshake fragments must tile the record (§4.2.2 header below),
/// carry a message type the peer's role sends, and hellos must start with a DTLS version;
/// ChangeCipherSpec is the single byte 1; alerts are two bytes; no application data in epoch 0.
/// A forged but well-formed plaintext message can still disrupt a handshake: DTLS 1.2 cannot
/// authenticate epoch 0 (the fingerprint check then fails closed).
///
/// ```
/// msg_type(1) length(3) message_seq(2) fragment_offset(3) fragment_length(3) fragment...
/// ```
enum DTLSRecordFraming {
    static let headerLength = 13
    /// ContentType application_data (RFC 5246 §6.2.1).
    static let applicationDataType: UInt8 = 23
    static let handshakeHeaderLength = 12

    /// True when `datagram` is a sequence of complete DTLS records a peer playing `peerRole` may send.
    static func isWellFormed(_ datagram: [UInt8], from peerRole: DTLSRole) -> Bool {
        var offset = 0
        guard !datagram.isEmpty else { return false }
        while offset < datagram.count {
            guard datagram.count - offset >= headerLength else { return false }
            let contentType = datagram[offset]
            // 20 change_cipher_spec, 21 alert, 22 handshake, 23 application_data, 24 heartbeat, 25 tls12_cid.
            guard (20...25).contains(contentType), datagram[offset + 1] == 0xFE else { return false }
            let epochZero = datagram[offset + 3] == 0 && datagram[offset + 4] == 0
            let length = Int(datagram[offset + 11]) << 8 | Int(datagram[offset + 12])
            offset += headerLength
            guard length <= datagram.count - offset else { return false }
            let body = datagram[offset..<offset + length]
            offset += length
            if epochZero, !isPlausiblePlaintext(contentType: contentType, body: body, from: peerRole) { return false }
        }
        return true
    }

    private static func isPlausiblePlaintext(contentType: UInt8, body: ArraySlice<UInt8>, from peerRole: DTLSRole) -> Bool {
        switch contentType {
        case 20: return body.count == 1 && body.first == 1
        case 21: return body.count == 2 && (body.first == 1 || body.first == 2)
        case 22: return handshakeFragmentsTile(body, from: peerRole)
        default: return false
        }
    }

    private static func handshakeFragmentsTile(_ body: ArraySlice<UInt8>, from peerRole: DTLSRole) -> Bool {
        var index = body.startIndex
        guard !body.isEmpty else { return false }
        while index < body.endIndex {
            guard body.endIndex - index >= handshakeHeaderLength else { return false }
            let type = body[index]
            let total = uint24(body, index + 1)
            let fragmentOffset = uint24(body, index + 6)
            let fragmentLength = uint24(body, index + 9)
            let start = index + handshakeHeaderLength
            guard peerRole.sendsPlaintext(handshakeType: type),
                  fragmentLength <= body.endIndex - start,
                  fragmentOffset + fragmentLength <= total
            else { return false }
            // client_version / server_version comes first in hellos (RFC 6347 §4.2.1).
            if type == 1 || type == 2 || type == 3, fragmentOffset == 0, fragmentLength >= 1, body[start] != 0xFE {
                return false
            }
            index = start + fragmentLength
        }
        return true
    }

    private static func uint24(_ bytes: ArraySlice<UInt8>, _ at: Int) -> Int {
        Int(bytes[at]) << 16 | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2])
    }
}

extension DTLSRole {
    /// Plaintext (epoch 0) handshake messages each role sends in DTLS 1.2 (RFC 5246 §7.4).
    func sendsPlaintext(handshakeType type: UInt8) -> Bool {
        switch self {
        case .client:
            // client_hello, certificate, certificate_verify, client_key_exchange
            [1, 11, 15, 16].contains(type)
        case .server:
            // hello_request, server_hello, hello_verify_request, new_session_ticket, certificate,
            // server_key_exchange, certificate_request, server_hello_done
            [0, 2, 3, 4, 11, 12, 13, 14].contains(type)
        }
    }
}
