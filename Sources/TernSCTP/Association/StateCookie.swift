internal import TernCore

/// The State Cookie this implementation puts in INIT ACK (RFC 9260 §5.1.3): everything needed
/// to build the association when COOKIE ECHO comes back, so INIT itself creates no state.
/// Signed with HMAC-SHA256 under a per-association secret key.
///
/// Layout: version(1) | created ns(8) | local tag(4) | peer tag(4) | local initial TSN(4) |
/// peer initial TSN(4) | peer a_rwnd(4) | peer OS(2) | peer MIS(2) | flags(1) | HMAC(32)
struct StateCookie: Equatable {
    var created: Instant
    var localTag: UInt32
    var peerTag: UInt32
    var localInitialTSN: UInt32
    var peerInitialTSN: UInt32
    var peerReceiverWindow: UInt32
    var peerOutboundStreams: UInt16
    var peerInboundStreams: UInt16
    var peerSupportsForwardTSN: Bool
    var peerSupportsReconfig: Bool

    static let version: UInt8 = 1
    static let size = 34 + 32

    func encode(key: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [StateCookie.version]
        out.reserveCapacity(StateCookie.size)
        let ns = UInt64(bitPattern: created.nanoseconds)
        out.appendBE(UInt32(truncatingIfNeeded: ns >> 32))
        out.appendBE(UInt32(truncatingIfNeeded: ns))
        out.appendBE(localTag); out.appendBE(peerTag)
        out.appendBE(localInitialTSN); out.appendBE(peerInitialTSN)
        out.appendBE(peerReceiverWindow)
        out.appendBE(peerOutboundStreams); out.appendBE(peerInboundStreams)
        out.append((peerSupportsForwardTSN ? 1 : 0) | (peerSupportsReconfig ? 2 : 0))
        out.append(contentsOf: HMACSHA256.authenticate(out, key: key))
        return out
    }

    /// Why a COOKIE ECHO was refused.
    enum Rejection: Error {
        case malformed, badSignature
        /// Signed by us but older than its lifetime (RFC 9260 §5.1.5): who sent it, and by how much.
        case stale(peerTag: UInt32, staleness: Duration)
    }

    static func decode(_ bytes: [UInt8], key: [UInt8], now: Instant, lifetime: Duration) throws(Rejection) -> StateCookie {
        guard bytes.count == size, bytes[0] == version else { throw .malformed }
        let body = bytes[0..<34]
        guard HMACSHA256.equal(HMACSHA256.authenticate(body, key: key), bytes[34...]) else { throw .badSignature }
        var r = ByteReader(body.dropFirst())
        do {
            let ns = try r.readUInt64()
            let cookie = StateCookie(
                created: Instant(nanoseconds: Int64(bitPattern: ns)), localTag: try r.readUInt32(), peerTag: try r.readUInt32(),
                localInitialTSN: try r.readUInt32(), peerInitialTSN: try r.readUInt32(),
                peerReceiverWindow: try r.readUInt32(), peerOutboundStreams: try r.readUInt16(),
                peerInboundStreams: try r.readUInt16(), peerSupportsForwardTSN: false, peerSupportsReconfig: false)
            let flags = try r.readUInt8()
            var c = cookie
            c.peerSupportsForwardTSN = flags & 1 != 0
            c.peerSupportsReconfig = flags & 2 != 0
            guard now - c.created <= lifetime else { throw Rejection.stale(peerTag: c.peerTag, staleness: now - c.created - lifetime) }
            return c
        } catch let e as Rejection {
            throw e
        } catch {
            throw .malformed
        }
    }
}
