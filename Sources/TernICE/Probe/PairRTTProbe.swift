import TernCore

/// Measures the round-trip time of the selected candidate pair with `PairProbeMessage`s and
/// answers the peer's. Sans-I/O: `makeRequest` gives the bytes to send, `handle` takes a
/// received probe and says what to do; the caller owns the clock, the timer, the random IDs
/// and the sending. One transmission per request, no retransmission, so every sample is
/// unambiguous (Karn's rule). Counters follow W3C `RTCIceCandidatePairStats`.
struct PairRTTProbe: Sendable {
    /// What a received probe means.
    enum Outcome: Sendable, Equatable {
        /// The peer's request: send these bytes back on the pair.
        case answer([UInt8])
        /// An authenticated answer to our request: the pair's round-trip time.
        case measured(Duration)
        /// Dropped: bad MAC, or an answer to no request of ours (late, duplicated or forged).
        case rejected(reason: String)
    }

    /// Requests older than this are forgotten and counted as unanswered.
    var timeout: Duration
    /// At most this many requests are remembered.
    static let maximumOutstanding = 8

    private var outstanding: [(id: [UInt8], sentAt: Instant)] = []
    /// W3C `requestsSent` (our probes).
    private(set) var requestsSent: UInt64 = 0
    /// W3C `responsesReceived` (authenticated answers to our probes).
    private(set) var responsesReceived: UInt64 = 0
    /// W3C `currentRoundTripTime`: the latest sample.
    private(set) var currentRoundTripTime: Duration?
    /// W3C `totalRoundTripTime`: the sum of all samples.
    private(set) var totalRoundTripTime: Duration = .zero
    /// Requests that got no answer within `timeout`.
    private(set) var unanswered: UInt64 = 0

    init(timeout: Duration = .seconds(5)) { self.timeout = timeout }

    /// True when the peer has never answered and at least `limit` requests went unanswered:
    /// probably not a Tern peer (it drops probes, RFC 7983), so stop sending them on this pair.
    func peerIgnoresProbes(limit: UInt64 = 3) -> Bool { responsesReceived == 0 && unanswered >= limit }

    /// A request with `id` (12 random bytes), authenticated with the peer's ICE password.
    mutating func makeRequest(now: Instant, id: [UInt8], remotePassword: String) -> [UInt8] {
        expire(now: now)
        if outstanding.count == Self.maximumOutstanding { outstanding.removeFirst(); unanswered += 1 }
        outstanding.append((id, now))
        requestsSent += 1
        return PairProbeMessage(kind: .request, id: id).encode(key: Array(remotePassword.utf8))
    }

    /// A received probe (`PairProbeMessage.looksLikeProbe` held). Requests are authenticated
    /// with our password and answered with it; answers are checked with the peer's password.
    mutating func handle(_ bytes: [UInt8], now: Instant, localPassword: String, remotePassword: String) -> Outcome {
        // The kind byte decides which password authenticates the message.
        let isRequest = bytes.count > 3 && bytes[3] == PairProbeMessage.Kind.request.rawValue
        let key = Array((isRequest ? localPassword : remotePassword).utf8)
        let message: PairProbeMessage
        do {
            message = try PairProbeMessage(parsing: bytes, key: key)
        } catch {
            return .rejected(reason: error.description)
        }
        switch message.kind {
        case .request:
            return .answer(PairProbeMessage(kind: .response, id: message.id).encode(key: key))
        case .response:
            guard let index = outstanding.firstIndex(where: { $0.id == message.id }) else {
                return .rejected(reason: "answer to no outstanding probe (late or duplicated)")
            }
            let rtt = now - outstanding.remove(at: index).sentAt
            responsesReceived += 1
            currentRoundTripTime = rtt
            totalRoundTripTime += rtt
            return .measured(rtt)
        }
    }

    /// Forgets requests older than `timeout`; returns how many.
    @discardableResult
    mutating func expire(now: Instant) -> Int {
        let before = outstanding.count
        outstanding.removeAll { now - $0.sentAt > timeout }
        let expired = before - outstanding.count
        unanswered += UInt64(expired)
        return expired
    }

    /// A new pair was selected: its statistics start from zero (W3C stats are per pair).
    mutating func reset() { self = PairRTTProbe(timeout: timeout) }
}
