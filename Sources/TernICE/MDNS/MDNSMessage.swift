import TernCore

/// The two DNS messages a one-shot mDNS resolver needs (RFC 6762 §5.1, RFC 1035 §4.1).
/// Sans-I/O: bytes in, values out; malformed input returns nil, never traps.
///
/// ```
///  0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15
/// +--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+
/// |                      ID                       |
/// |QR|  Opcode   |AA|TC|RD|RA|   Z    |   RCODE   |
/// |                    QDCOUNT                    |
/// |                    ANCOUNT                    |
/// |                    NSCOUNT                    |
/// |                    ARCOUNT                    |
/// +--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+
/// question: QNAME QTYPE QCLASS; answer: NAME TYPE CLASS TTL RDLENGTH RDATA
/// ```
enum MDNSMessage {
    static let typeA: UInt16 = 1
    static let typeAAAA: UInt16 = 28
    static let classIN: UInt16 = 1

    /// A query for the A and AAAA records of `name`. Sent from an ephemeral port it is a
    /// "one-shot" query: responders answer by unicast to that port (RFC 6762 §5.1, §6.7).
    static func query(name: String, id: UInt16) -> [UInt8]? {
        var w = ByteWriter(capacity: 64)
        w.write(id)
        w.write(UInt16(0)) // standard query
        w.write(UInt16(2)) // QDCOUNT
        w.write(UInt16(0)); w.write(UInt16(0)); w.write(UInt16(0))
        for type in [typeA, typeAAAA] {
            guard writeName(name, into: &w) else { return nil }
            w.write(type)
            w.write(classIN | 0x8000) // QU: unicast response requested (RFC 6762 §5.4)
        }
        return w.bytes
    }

    /// The first A (preferred) or AAAA address for `name` in a response, as text.
    static func address(for name: String, in message: [UInt8]) -> String? {
        var r = ByteReader(message)
        do throws(ByteReaderError) {
            _ = try r.readUInt16() // id: responders may send 0 in multicast answers
            let flags = try r.readUInt16()
            guard flags & 0x8000 != 0 else { return nil } // not a response
            let qd = try r.readUInt16(), an = try r.readUInt16(), ns = try r.readUInt16(), ar = try r.readUInt16()
            for _ in 0..<qd {
                guard readName(&r, message) != nil else { return nil }
                try r.skip(4)
            }
            var v6: String?
            for _ in 0..<(Int(an) + Int(ns) + Int(ar)) {
                guard let owner = readName(&r, message) else { return nil }
                let type = try r.readUInt16()
                _ = try r.readUInt16() // class (+ cache-flush bit)
                _ = try r.readUInt32() // TTL
                let length = Int(try r.readUInt16())
                let data = Array(try r.readBytes(length))
                guard owner.lowercased() == name.lowercased().trimmingSuffix(".") else { continue }
                if type == typeA, data.count == 4 { return data.map(String.init).joined(separator: ".") }
                if type == typeAAAA, data.count == 16, v6 == nil { v6 = ipv6Text(data) }
            }
            return v6
        } catch {
            return nil
        }
    }

    /// The ID and first question name of a query (used by tests' fake responder).
    static func question(in message: [UInt8]) -> (id: UInt16, name: String)? {
        var r = ByteReader(message)
        guard let id = try? r.readUInt16(), (try? r.skip(10)) != nil, let name = readName(&r, message) else { return nil }
        return (id, name)
    }

    /// A response carrying one A record (for tests' fake responder).
    static func response(id: UInt16, name: String, ipv4: [UInt8]) -> [UInt8]? {
        guard ipv4.count == 4 else { return nil }
        var w = ByteWriter(capacity: 64)
        w.write(id); w.write(UInt16(0x8400)) // response, authoritative
        w.write(UInt16(0)); w.write(UInt16(1)); w.write(UInt16(0)); w.write(UInt16(0))
        guard writeName(name, into: &w) else { return nil }
        w.write(typeA); w.write(classIN | 0x8000); w.write(UInt32(120)); w.write(UInt16(4))
        for b in ipv4 { w.write(b) }
        return w.bytes
    }

    private static func writeName(_ name: String, into w: inout ByteWriter) -> Bool {
        for label in name.trimmingSuffix(".").split(separator: ".") {
            let bytes = Array(label.utf8)
            guard (1...63).contains(bytes.count) else { return false }
            w.write(UInt8(bytes.count))
            for b in bytes { w.write(b) }
        }
        w.write(UInt8(0))
        return true
    }

    /// Reads a possibly compressed name (RFC 1035 §4.1.4); at most 16 pointer hops.
    private static func readName(_ r: inout ByteReader, _ message: [UInt8]) -> String? {
        var labels: [String] = []
        var reader = r
        var jumped = false
        for _ in 0..<128 {
            guard let length = try? reader.readUInt8() else { return nil }
            if length == 0 {
                if !jumped { r = reader }
                return labels.joined(separator: ".")
            }
            if length & 0xC0 == 0xC0 {
                guard let low = try? reader.readUInt8() else { return nil }
                let target = Int(length & 0x3F) << 8 | Int(low)
                guard target < message.count else { return nil }
                if !jumped { r = reader; jumped = true }
                reader = ByteReader(message[target...])
                continue
            }
            guard length <= 63, let bytes = try? reader.readBytes(Int(length)) else { return nil }
            labels.append(String(decoding: bytes, as: UTF8.self))
        }
        return nil // pointer loop
    }

    private static func ipv6Text(_ b: [UInt8]) -> String {
        stride(from: 0, to: 16, by: 2).map { String(UInt16(b[$0]) << 8 | UInt16(b[$0 + 1]), radix: 16) }
            .joined(separator: ":")
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
