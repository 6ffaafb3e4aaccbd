/// The `t=` line (RFC 8866 §5.9): `t=<start-time> <stop-time>`; WebRTC always uses `t=0 0`.
public struct Timing: Sendable, Equatable {
    /// NTP start time, 0 for unbounded.
    public var start: UInt64
    /// NTP stop time, 0 for unbounded.
    public var stop: UInt64

    /// Creates a timing line.
    public init(start: UInt64 = 0, stop: UInt64 = 0) {
        self.start = start
        self.stop = stop
    }

    init(parsing text: SDPBytes) throws(SDPValueError) {
        let parts = Tokens.fields(text)
        guard parts.count == 2 else { throw SDPValueError("expected `<start-time> <stop-time>`") }
        guard let start = Tokens.number(parts[0], as: UInt64.self),
              let stop = Tokens.number(parts[1], as: UInt64.self) else {
            throw SDPValueError("start and stop times must be numbers")
        }
        self.start = start
        self.stop = stop
    }

    var text: String { SDPWriter.render(self) }
}
