/// Reassembles fragmented user messages and restores per-stream order
/// (RFC 9260 §6.5 ordered/unordered delivery, §6.9 fragmentation).
///
/// Fragments of one message carry consecutive TSNs. For each stream, received fragments
/// are kept as runs of consecutive TSNs that never cross a message boundary (a run cannot
/// extend past an E fragment or before a B fragment); a run that starts with B and ends
/// with E is a complete message. Each fragment is inserted in O(1).
struct ReassemblyQueue {
    private var streams: [UInt16: StreamReassembly] = [:]
    /// Bytes held (fragments plus complete messages waiting for order): counted against a_rwnd.
    private(set) var bufferedBytes = 0
    /// Messages discarded because they exceeded `maxMessageSize`.
    private(set) var oversizeDiscarded = 0
    /// Fragments held across all streams.
    private(set) var fragmentCount = 0
    let maxMessageSize: Int
    /// The most fragments held at once (all streams): far above what the receive window lets a
    /// peer have outstanding in fragments of a normal size, so only tiny fragments meet it.
    let maxFragments: Int

    init(maxMessageSize: Int, maxFragments: Int = 16_384) {
        self.maxMessageSize = maxMessageSize
        self.maxFragments = maxFragments
    }

    /// Whether `chunk` would be held as a fragment while `maxFragments` are held already.
    func refuses(_ chunk: DataChunk) -> Bool {
        !(chunk.isBeginning && chunk.isEnding) && fragmentCount >= maxFragments
    }

    /// Adds a new (non-duplicate) DATA chunk; appends deliverable messages to `deliver`.
    mutating func insert(_ chunk: DataChunk, deliver: inout [SCTPMessage]) {
        var oversize = 0
        // Mutated in place (no copy of the stream's fragment table).
        let before = streams[chunk.streamIdentifier]?.fragments.count ?? 0
        bufferedBytes += streams[chunk.streamIdentifier, default: StreamReassembly()]
            .insert(chunk, maxMessageSize: maxMessageSize, deliver: &deliver, oversize: &oversize)
        fragmentCount += (streams[chunk.streamIdentifier]?.fragments.count ?? 0) - before
        oversizeDiscarded += oversize
    }

    /// FORWARD TSN (RFC 3758 §3.6): drops fragments at or below `newCumulative`, then, for each
    /// ordered stream skipped up to `ssn`, delivers what is now in order and moves past `ssn`.
    mutating func forward(to newCumulative: UInt32, skipped: [ForwardTSNChunk.SkippedStream],
                          deliver: inout [SCTPMessage]) {
        for sid in Array(streams.keys) {
            let before = streams[sid]?.fragments.count ?? 0
            bufferedBytes += streams[sid, default: StreamReassembly()].dropFragments(upTo: newCumulative)
            fragmentCount += (streams[sid]?.fragments.count ?? 0) - before
        }
        for skip in skipped {
            bufferedBytes += streams[skip.streamIdentifier, default: StreamReassembly()]
                .skip(to: skip.streamSequenceNumber, deliver: &deliver)
        }
    }

    /// Drops the fragments held past `cumulative` (reneging, RFC 9260 §6.2) and returns their TSNs.
    mutating func dropFragments(after cumulative: UInt32) -> [UInt32] {
        var dropped: [UInt32] = []
        for sid in Array(streams.keys) {
            let before = streams[sid]?.fragments.count ?? 0
            bufferedBytes += streams[sid, default: StreamReassembly()].dropFragments(after: cumulative, into: &dropped)
            fragmentCount += (streams[sid]?.fragments.count ?? 0) - before
        }
        return dropped
    }

    /// RFC 6525 §5.2.2: the peer reset its outgoing streams; incoming SSNs restart at 0.
    mutating func resetStreams(_ ids: [UInt16]) {
        let targets = ids.isEmpty ? Array(streams.keys) : ids
        for sid in targets where streams[sid] != nil {
            bufferedBytes += streams[sid, default: StreamReassembly()].reset()
        }
    }
}
