/// The receiver's record of TSNs (RFC 9260 §6.2): the cumulative TSN ack point and
/// the ranges received above it, from which SACK gap blocks are built.
struct ReceivedTSNTracker {
    /// Highest TSN below which everything has arrived.
    private(set) var cumulative: UInt32
    /// Disjoint, sorted, non-adjacent ranges above `cumulative + 1`.
    private(set) var ranges: [(start: UInt32, end: UInt32)] = []

    init(peerInitialTSN: UInt32) { cumulative = peerInitialTSN &- 1 }

    var hasGaps: Bool { !ranges.isEmpty }

    /// Whether `tsn` was already received.
    func contains(_ tsn: UInt32) -> Bool {
        if tsn.tsnLessOrEqual(cumulative) { return true }
        guard let i = index(containingOrAfter: tsn), i < ranges.count else { return false }
        return ranges[i].start.tsnLessOrEqual(tsn)
    }

    /// Records `tsn`; returns false for a duplicate.
    mutating func insert(_ tsn: UInt32) -> Bool {
        if tsn.tsnLessOrEqual(cumulative) { return false }
        if tsn == cumulative &+ 1 {
            cumulative = tsn
            absorbFirstRange()
            return true
        }
        let i = index(containingOrAfter: tsn) ?? ranges.count
        if i < ranges.count, ranges[i].start.tsnLessOrEqual(tsn) { return false }
        let joinsPrevious = i > 0 && ranges[i - 1].end &+ 1 == tsn
        let joinsNext = i < ranges.count && ranges[i].start == tsn &+ 1
        switch (joinsPrevious, joinsNext) {
        case (true, true):
            ranges[i - 1].end = ranges[i].end
            ranges.remove(at: i)
        case (true, false): ranges[i - 1].end = tsn
        case (false, true): ranges[i].start = tsn
        case (false, false): ranges.insert((tsn, tsn), at: i)
        }
        return true
    }

    /// Forgets `tsns` (above the cumulative TSN) as if they never arrived: a receiver reneging
    /// on gap-acked data (RFC 9260 §6.2). One pass over the ranges and the sorted TSNs.
    mutating func remove(_ tsns: [UInt32]) {
        let sorted = tsns.filter { cumulative.tsnLess($0) }.sorted { $0.tsnLess($1) }
        guard !sorted.isEmpty else { return }
        var kept: [(start: UInt32, end: UInt32)] = []
        kept.reserveCapacity(ranges.count)
        var k = 0
        for range in ranges {
            while k < sorted.count, sorted[k].tsnLess(range.start) { k += 1 }
            var start = range.start
            var open = true   // whether `start...range.end` still holds something
            while k < sorted.count, sorted[k].tsnLessOrEqual(range.end) {
                let tsn = sorted[k]
                if start.tsnLess(tsn) { kept.append((start, tsn &- 1)) }
                if tsn == range.end { open = false } else if !tsn.tsnLess(start) { start = tsn &+ 1 }
                k += 1
            }
            if open { kept.append((start, range.end)) }
        }
        ranges = kept
    }

    /// Moves the cumulative point forward (FORWARD TSN, RFC 3758 §3.6).
    mutating func forward(to newCumulative: UInt32) {
        guard cumulative.tsnLess(newCumulative) else { return }
        cumulative = newCumulative
        while let first = ranges.first, first.end.tsnLessOrEqual(cumulative) { ranges.removeFirst() }
        if let first = ranges.first, first.start.tsnLessOrEqual(cumulative) { ranges[0].start = cumulative &+ 1 }
        absorbFirstRange()
    }

    /// Gap ack blocks relative to `cumulative` (at most `limit`; offsets beyond 16 bits are left out).
    func gapBlocks(limit: Int) -> [SackChunk.GapBlock] {
        var out: [SackChunk.GapBlock] = []
        for r in ranges.prefix(limit) {
            let s = r.start &- cumulative, e = r.end &- cumulative
            guard e <= 0xFFFF else { break }
            out.append(.init(start: UInt16(s), end: UInt16(e)))
        }
        return out
    }

    private mutating func absorbFirstRange() {
        if let first = ranges.first, first.start == cumulative &+ 1 {
            cumulative = first.end
            ranges.removeFirst()
        }
    }

    /// Index of the first range whose end is >= tsn.
    private func index(containingOrAfter tsn: UInt32) -> Int? {
        var lo = 0, hi = ranges.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if ranges[mid].end.tsnLess(tsn) { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
