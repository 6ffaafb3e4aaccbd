extension TransportWideCC {
    /// Builds feedback for the packets `baseSequenceNumber`, `baseSequenceNumber+1`, …
    /// whose arrival times (relative to any fixed origin) are `arrivals`; nil means
    /// not received. The first received packet sets the reference time.
    ///
    /// Packets are covered in order until one's delta does not fit 16 signed bits
    /// (8.19 s); the result's `packetStatusCount` says how many were covered, and
    /// the caller starts a new feedback packet at the next one, as libwebrtc does.
    public init(senderSSRC: UInt32, mediaSSRC: UInt32, feedbackPacketCount: UInt8,
                baseSequenceNumber: UInt16, arrivals: [Duration?]) {
        let firstArrival = arrivals.lazy.compactMap { $0 }.first ?? .zero
        let firstMicros = firstArrival.nanoseconds / 1000
        var reference = firstMicros / 64_000
        if firstMicros < 0, firstMicros % 64_000 != 0 { reference -= 1 }
        let reference24 = Int32(truncatingIfNeeded: (reference << 40) >> 40)
        var previousTicks = reference * 256
        var statuses: [Status] = []
        var deltas: [Int16] = []
        for arrival in arrivals.prefix(0xFFFF) {
            guard let arrival else {
                statuses.append(.notReceived)
                continue
            }
            let ticks = (arrival.nanoseconds / 1000).roundedDivision(by: 250)
            let delta = ticks - previousTicks
            guard let delta16 = Int16(exactly: delta) else { break }
            statuses.append((0...255).contains(delta16) ? .receivedSmallDelta : .receivedLargeOrNegativeDelta)
            deltas.append(delta16)
            previousTicks = ticks
        }
        // Trailing losses carry no information the next feedback will not repeat.
        while statuses.last == .notReceived { statuses.removeLast() }
        self.init(senderSSRC: senderSSRC, mediaSSRC: mediaSSRC, baseSequenceNumber: baseSequenceNumber,
                  packetStatusCount: UInt16(statuses.count), referenceTime: reference24,
                  feedbackPacketCount: feedbackPacketCount, chunks: Self.encodeChunks(statuses), recvDeltas: deltas)
    }

    /// Encodes statuses into chunks: a run-length chunk for runs of 14 or more
    /// (or a trailing run), a one-bit vector when the next 14 need no large delta,
    /// otherwise a two-bit vector of 7 (§3.1.3, §3.1.4).
    public static func encodeChunks(_ statuses: [Status]) -> [Chunk] {
        var chunks: [Chunk] = []
        var i = 0
        while i < statuses.count {
            var run = 1
            while i + run < statuses.count, statuses[i + run] == statuses[i], run < 0x1FFF { run += 1 }
            let remaining = statuses.count - i
            if run >= 14 || run == remaining {
                chunks.append(.runLength(statuses[i], length: UInt16(run)))
                i += run
                continue
            }
            let window = statuses[i..<min(i + 14, statuses.count)]
            if window.allSatisfy({ $0 != .receivedLargeOrNegativeDelta }) && remaining >= 8 {
                var symbols = Array(window)
                symbols.append(contentsOf: repeatElement(.notReceived, count: 14 - symbols.count))
                chunks.append(.oneBitVector(symbols))
                i += 14
            } else {
                var symbols = Array(statuses[i..<min(i + 7, statuses.count)])
                symbols.append(contentsOf: repeatElement(.notReceived, count: 7 - symbols.count))
                chunks.append(.twoBitVector(symbols))
                i += 7
            }
        }
        return chunks
    }
}

extension Int64 {
    /// Division rounding to the nearest integer, halves away from zero.
    func roundedDivision(by divisor: Int64) -> Int64 {
        self >= 0 ? (self + divisor / 2) / divisor : (self - divisor / 2) / divisor
    }
}
