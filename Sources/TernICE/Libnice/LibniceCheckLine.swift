/// One line of libnice's connectivity-check debug output that the ICE trace keeps.
///
/// libnice 0.1.21 reports no per-pair check events through its API (only the selected pair),
/// but its debug log (`nice_debug`, GLib domain "libnice") narrates the check list: each pair
/// formed, each state change (RFC 8445 §6.1.2.6: Frozen, Waiting, In-Progress, Succeeded,
/// Failed), each check sent and each nomination. `NiceDebugTap` reads those lines; this type
/// parses one. The formats are copied from libnice 0.1.21 `conncheck.c`; a line that does not
/// match is ignored (so a libnice that words them differently loses detail, never breaks).
enum LibniceCheckLine: Equatable {
    /// `Agent %p : new pair %p : [%s]:%u --> [%s]:%u`
    case newPair(pair: UInt, local: String, remote: String)
    /// `Agent %p : pair %p state %s (%s)`
    case pairState(pair: UInt, state: String)
    /// `Agent %p : STUN-CC REQ [%s]:%u --> [%s]:%u, socket=%u, pair=%p (c-id:%u), ...`
    case checkSent(pair: UInt)
    /// `Agent %p : marking pair %p (%s) as nominated[ (regular nomination, controlling, ...)]`
    case nominated(pair: UInt, detail: String?)
    /// `Agent %p : stopping criterion: %s`
    case stoppingCriterion(String)

    /// The agent a line is about and what it says, or nil for every other line.
    static func parse(_ line: Substring) -> (agent: UInt, line: LibniceCheckLine)? {
        guard line.hasPrefix("Agent 0x"), let agentEnd = line.firstIndex(of: " ", after: 6),
              let agent = UInt(line[line.index(line.startIndex, offsetBy: 8)..<agentEnd], radix: 16) else { return nil }
        var rest = line[agentEnd...]
        guard rest.hasPrefix(" : ") else { return nil }
        rest = rest.dropFirst(3)
        if rest.hasPrefix("new pair 0x") {
            // new pair 0x7f.. : [127.0.0.1]:41994 --> [127.0.0.1]:41245
            let fields = rest.split(separator: " ")
            guard fields.count >= 7, let pair = hex(fields[2]), fields[5] == "-->",
                  let local = address(fields[4]), let remote = address(fields[6]) else { return nil }
            return (agent, .newPair(pair: pair, local: local, remote: remote))
        }
        if rest.hasPrefix("pair 0x") {
            // pair 0x7f.. state SUCCEEDED (priv_process_response_check_for_reflexive)
            let fields = rest.split(separator: " ")
            guard fields.count >= 4, fields[2] == "state", let pair = hex(fields[1]) else { return nil }
            return (agent, .pairState(pair: pair, state: String(fields[3])))
        }
        if rest.hasPrefix("STUN-CC REQ "), let at = rest.range(of: "pair=0x") {
            let digits = rest[at.upperBound...].prefix { $0.isHexDigit }
            guard let pair = UInt(digits, radix: 16) else { return nil }
            return (agent, .checkSent(pair: pair))
        }
        if rest.hasPrefix("marking pair 0x"), rest.contains(" as nominated") {
            let fields = rest.split(separator: " ", maxSplits: 3)
            guard fields.count >= 3, let pair = hex(fields[2]) else { return nil }
            var detail: Substring?
            if let open = rest.range(of: "as nominated ("), let close = rest.lastIndex(of: ")") , open.upperBound <= close {
                detail = rest[open.upperBound..<close]
            }
            return (agent, .nominated(pair: pair, detail: detail.map(String.init)))
        }
        if rest.hasPrefix("stopping criterion: ") {
            return (agent, .stoppingCriterion(String(rest.dropFirst("stopping criterion: ".count))))
        }
        return nil
    }

    private static func hex(_ field: Substring) -> UInt? {
        guard field.hasPrefix("0x") else { return nil }
        return UInt(field.dropFirst(2), radix: 16)
    }

    /// `[127.0.0.1]:41994` → `127.0.0.1:41994` (`[::1]:5000` keeps its brackets).
    private static func address(_ field: Substring) -> String? {
        guard field.hasPrefix("["), let close = field.lastIndex(of: "]") else { return nil }
        let host = field[field.index(after: field.startIndex)..<close]
        let port = field[field.index(after: close)...].dropFirst() // after ':'
        guard !port.isEmpty, port.allSatisfy(\.isNumber) else { return nil }
        return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}

private extension Substring {
    func firstIndex(of character: Character, after offset: Int) -> Index? {
        guard count > offset else { return nil }
        return self[index(startIndex, offsetBy: offset)...].firstIndex(of: character)
    }
}
