/// Writes a `SessionDescription` as SDP text with CRLF line endings (RFC 8866 §5).
///
/// The same `write(to:)` code runs twice: once into a `SDPSizeCounter` to learn the exact UTF-8 size,
/// then into an `SDPTextBuffer` that copies each piece into one string of that size. No temporary
/// string per line, no regrowth.
public enum SDPWriter {
    /// The description as text.
    public static func write(_ description: SessionDescription) -> String {
        var counter = SDPSizeCounter()
        description.write(to: &counter)
        return String(unsafeUninitializedCapacity: counter.count) { buffer in
            var out = SDPTextBuffer(buffer)
            description.write(to: &out)
            return out.count
        }
    }

    /// One value (a line without its CRLF, an `o=`/`m=`/`c=` value) as text.
    static func render(_ value: some SDPWritable) -> String {
        var counter = SDPSizeCounter()
        value.write(to: &counter)
        return String(unsafeUninitializedCapacity: counter.count) { buffer in
            var out = SDPTextBuffer(buffer)
            value.write(to: &out)
            return out.count
        }
    }
}

/// Something the writer can put into SDP text.
protocol SDPWritable {
    func write(to out: inout some SDPTextSink)
}

/// Where SDP text goes: counted or copied.
protocol SDPTextSink {
    mutating func append(_ literal: StaticString)
    mutating func append(_ text: String)
    mutating func append(bytes: SDPBytes)
    mutating func append(_ number: Int)
}

extension SDPTextSink {
    mutating func append(_ number: UInt64) {
        if number <= UInt64(Int.max) { append(Int(number)) } else { append(String(number)) }
    }

    /// `prefix`, `value`, CRLF.
    mutating func line(_ prefix: StaticString, _ value: String) {
        append(prefix)
        append(value)
        append("\r\n")
    }
}

/// Counts the bytes a description takes.
struct SDPSizeCounter: SDPTextSink {
    private(set) var count = 0

    mutating func append(_ literal: StaticString) { count += literal.utf8CodeUnitCount }
    mutating func append(_ text: String) { count += text.utf8.count }
    mutating func append(bytes: SDPBytes) { count += bytes.count }
    mutating func append(_ number: Int) { count += SDPTextBuffer.digitCount(number) }
}

/// Copies SDP text into a buffer sized by `SDPSizeCounter`.
struct SDPTextBuffer: SDPTextSink {
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    private(set) var count = 0

    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { copy($0) }
    }

    mutating func append(_ text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ copy($0) }) == nil {
            var native = text
            native.withUTF8 { copy($0) }
        }
    }

    mutating func append(bytes: SDPBytes) { copy(UnsafeBufferPointer(rebasing: bytes)) }

    mutating func append(_ number: Int) {
        guard number >= 0 else {
            append(String(number))
            return
        }
        let digits = Self.digitCount(number)
        precondition(count + digits <= buffer.count, "SDPWriter: size pass and copy pass disagree")
        var value = number
        for position in stride(from: count + digits - 1, through: count, by: -1) {
            buffer[position] = UInt8(ascii: "0") + UInt8(value % 10)
            value /= 10
        }
        count += digits
    }

    static func digitCount(_ number: Int) -> Int {
        guard number >= 0 else { return String(number).utf8.count }
        var digits = 1
        var value = number
        while value >= 10 {
            value /= 10
            digits += 1
        }
        return digits
    }

    private mutating func copy(_ source: UnsafeBufferPointer<UInt8>) {
        // The size pass counted every byte; a mismatch is a bug in a `write(to:)`, never input-dependent.
        precondition(count + source.count <= buffer.count, "SDPWriter: size pass and copy pass disagree")
        guard let from = source.baseAddress, let to = buffer.baseAddress else { return }
        (to + count).update(from: from, count: source.count)
        count += source.count
    }
}

extension SessionDescription: SDPWritable {
    func write(to out: inout some SDPTextSink) {
        out.append("v=")
        out.append(version)
        out.append("\r\no=")
        origin.write(to: &out)
        out.append("\r\n")
        out.line("s=", sessionName)
        SDPLine.write(lines, to: &out)
        for section in media {
            out.append("m=")
            section.mediaLine.write(to: &out)
            out.append("\r\n")
            SDPLine.write(section.lines, to: &out)
        }
    }
}

extension SDPLine: SDPWritable {
    static func write(_ lines: [SDPLine], to out: inout some SDPTextSink) {
        // Switching on the buffer's elements in place reads each payload without copying the enum.
        lines.withUnsafeBufferPointer { lines in
            for index in lines.indices {
                // Attributes are nearly every line: matching the payload alone skips copying the enum.
                if case .attribute(let attribute) = lines[index] {
                    out.append("a=")
                    attribute.withText { out.append(bytes: $0) }
                } else {
                    lines[index].write(to: &out)
                }
                out.append("\r\n")
            }
        }
    }

    /// The line without its CRLF.
    func write(to out: inout some SDPTextSink) {
        switch self {
        case .attribute(let a):
            out.append("a=")
            a.withText { out.append(bytes: $0) }
        case .connection(let c):
            out.append("c=")
            c.write(to: &out)
        case .bandwidth(let b):
            out.append("b=")
            b.write(to: &out)
        case .timing(let t):
            out.append("t=")
            t.write(to: &out)
        case .information(let v): out.append("i="); out.append(v)
        case .uri(let v): out.append("u="); out.append(v)
        case .email(let v): out.append("e="); out.append(v)
        case .phone(let v): out.append("p="); out.append(v)
        case .repeatTimes(let v): out.append("r="); out.append(v)
        case .timeZones(let v): out.append("z="); out.append(v)
        case .encryptionKey(let v): out.append("k="); out.append(v)
        case .unknown(let type, let v):
            out.append(String(type))
            out.append("=")
            out.append(v)
        }
    }
}

extension Origin: SDPWritable {
    func write(to out: inout some SDPTextSink) {
        out.append(username)
        out.append(" ")
        out.append(sessionId)
        out.append(" ")
        out.append(sessionVersion)
        out.append(" ")
        out.append(networkType)
        out.append(" ")
        out.append(addressType)
        out.append(" ")
        out.append(address)
    }
}

extension ConnectionData: SDPWritable {
    func write(to out: inout some SDPTextSink) {
        out.append(networkType)
        out.append(" ")
        out.append(addressType)
        out.append(" ")
        out.append(address)
    }
}

extension MediaLine: SDPWritable {
    func write(to out: inout some SDPTextSink) {
        out.append(media)
        out.append(" ")
        out.append(port)
        if let portCount {
            out.append("/")
            out.append(portCount)
        }
        out.append(" ")
        out.append(proto)
        for format in formats {
            out.append(" ")
            out.append(format)
        }
    }
}

extension Bandwidth: SDPWritable {
    func write(to out: inout some SDPTextSink) {
        out.append(type)
        out.append(":")
        out.append(value)
    }
}

extension Timing: SDPWritable {
    func write(to out: inout some SDPTextSink) {
        out.append(start)
        out.append(" ")
        out.append(stop)
    }
}
