import TernSDP

/// How the agent reads and writes candidates: TernSDP's `ICECandidate` (RFC 8839 grammar) is
/// the one candidate type; this adds what ICE needs on top of the grammar.
extension ICECandidate {
    /// Parses a candidate for ICE: the RFC 8839 grammar, and a type and transport ICE knows
    /// (host/srflx/prflx/relay over UDP or TCP); anything else is `ICEError.malformedCandidate`.
    init(agentLine text: String) throws(ICEError) {
        do throws(SDPValueError) {
            self = try ICECandidate(parsing: text)
        } catch {
            throw .malformedCandidate(sdp: text, reason: error.description)
        }
        guard transportProtocol != nil else { throw .malformedCandidate(sdp: text, reason: "unknown transport '\(transport)'") }
        guard candidateType != nil else { throw .malformedCandidate(sdp: text, reason: "unknown type '\(type)'") }
    }

    /// The line handed to libnice: the fixed fields, transport in capitals, and only the
    /// extensions libnice reads (`raddr`/`rport`, `tcptype`) — browsers add `generation`,
    /// `ufrag`, `network-id` and `network-cost`, which ICE does not need.
    var agentLine: String {
        var line = "candidate:\(foundation) \(component) \(transport.uppercased()) \(priority) \(address) \(port) typ \(type)"
        if let relatedAddress, let relatedPort { line += " raddr \(relatedAddress) rport \(relatedPort)" }
        if let tcpType { line += " tcptype \(tcpType.lowercased())" }
        return line
    }
}
