/// One stream's fragments and ordering state. Methods return the change in buffered bytes.
struct StreamReassembly {
    /// Bytes charged per buffered fragment on top of its user data: the table entries, the chunk
    /// header and the array that holds it. Without it, 1-byte fragments would cost the window
    /// next to nothing while each holds a few hundred bytes of memory.
    static let fragmentOverhead = 128

    /// What a buffered fragment counts against the receive window.
    static func charge(_ chunk: DataChunk) -> Int { chunk.userData.count + fragmentOverhead }

    var fragments: [UInt32: DataChunk] = [:]
    var runEndByStart: [UInt32: UInt32] = [:]
    var runStartByEnd: [UInt32: UInt32] = [:]
    var expectedSSN: UInt16 = 0
    var pendingOrdered: [UInt16: SCTPMessage] = [:]
    var pendingOrderedBytes = 0

    mutating func insert(_ chunk: DataChunk, maxMessageSize: Int, deliver: inout [SCTPMessage],
                         oversize: inout Int) -> Int {
        let sid = chunk.streamIdentifier
        let tsn = chunk.tsn
        if chunk.isBeginning && chunk.isEnding {
            return complete(SCTPMessage(streamIdentifier: sid, payloadProtocolIdentifier: chunk.payloadProtocolIdentifier,
                                        payload: Array(chunk.userData), unordered: chunk.isUnordered),
                            ssn: chunk.streamSequenceNumber, deliver: &deliver)
        }
        // A copy: the received slice would keep the whole decrypted record alive (up to 16 KiB
        // for a 1-byte fragment) for as long as the message stays incomplete.
        var stored = chunk
        stored.userData = ArraySlice(Array(chunk.userData))
        fragments[tsn] = stored
        var delta = Self.charge(chunk)
        var start = tsn, end = tsn
        if !chunk.isBeginning, let prevStart = runStartByEnd[tsn &- 1], fragments[tsn &- 1]?.isEnding == false {
            runStartByEnd[tsn &- 1] = nil
            runEndByStart[prevStart] = nil
            start = prevStart
        }
        if !chunk.isEnding, let nextEnd = runEndByStart[tsn &+ 1], fragments[tsn &+ 1]?.isBeginning == false {
            runEndByStart[tsn &+ 1] = nil
            runStartByEnd[nextEnd] = nil
            end = nextEnd
        }
        guard let first = fragments[start], let last = fragments[end], first.isBeginning, last.isEnding else {
            runEndByStart[start] = end
            runStartByEnd[end] = start
            return delta
        }
        // Complete: concatenate and release.
        var size = 0, charged = 0
        var t = start
        while true {
            if let f = fragments[t] {
                size += f.userData.count
                charged += Self.charge(f)
            }
            if t == end { break }
            t &+= 1
        }
        let keep = size <= maxMessageSize
        var payload: [UInt8] = []
        if keep { payload.reserveCapacity(size) }
        t = start
        while true {
            if let f = fragments.removeValue(forKey: t), keep { payload.append(contentsOf: f.userData) }
            if t == end { break }
            t &+= 1
        }
        delta -= charged
        guard keep else {
            oversize += 1
            if !first.isUnordered, first.streamSequenceNumber == expectedSSN {
                expectedSSN &+= 1
                delta += drainOrdered(deliver: &deliver)
            }
            return delta
        }
        return delta + complete(SCTPMessage(streamIdentifier: sid, payloadProtocolIdentifier: first.payloadProtocolIdentifier,
                                            payload: payload, unordered: first.isUnordered),
                                ssn: first.streamSequenceNumber, deliver: &deliver)
    }

    private mutating func complete(_ message: SCTPMessage, ssn: UInt16, deliver: inout [SCTPMessage]) -> Int {
        if message.unordered {
            deliver.append(message)
            return 0
        }
        if ssn == expectedSSN {
            deliver.append(message)
            expectedSSN &+= 1
            return drainOrdered(deliver: &deliver)
        }
        if expectedSSN.ssnLess(ssn), pendingOrdered[ssn] == nil {
            pendingOrdered[ssn] = message
            pendingOrderedBytes += message.payload.count
            return message.payload.count
        }
        return 0  // An SSN already passed is a stale duplicate: dropped.
    }

    private mutating func drainOrdered(deliver: inout [SCTPMessage]) -> Int {
        var delta = 0
        while let next = pendingOrdered.removeValue(forKey: expectedSSN) {
            pendingOrderedBytes -= next.payload.count
            delta -= next.payload.count
            deliver.append(next)
            expectedSSN &+= 1
        }
        return delta
    }

    mutating func dropFragments(upTo newCumulative: UInt32) -> Int {
        let stale = fragments.keys.filter { $0.tsnLessOrEqual(newCumulative) }
        guard !stale.isEmpty else { return 0 }
        var delta = 0
        for tsn in stale {
            if let f = fragments.removeValue(forKey: tsn) { delta -= Self.charge(f) }
        }
        for (start, end) in runEndByStart where start.tsnLessOrEqual(newCumulative) {
            runEndByStart[start] = nil
            runStartByEnd[end] = nil
        }
        return delta
    }

    /// Drops the fragments with a TSN after `cumulative`, appending their TSNs to `dropped`. A run
    /// of fragments that still has some at or before `cumulative` keeps those, shortened.
    mutating func dropFragments(after cumulative: UInt32, into dropped: inout [UInt32]) -> Int {
        let late = fragments.keys.filter { cumulative.tsnLess($0) }
        guard !late.isEmpty else { return 0 }
        var delta = 0
        for tsn in late {
            if let f = fragments.removeValue(forKey: tsn) { delta -= Self.charge(f) }
            dropped.append(tsn)
        }
        for (start, end) in runEndByStart where cumulative.tsnLess(end) {
            runEndByStart[start] = nil
            runStartByEnd[end] = nil
            if start.tsnLessOrEqual(cumulative) {
                runEndByStart[start] = cumulative
                runStartByEnd[cumulative] = start
            }
        }
        return delta
    }

    /// Delivers complete messages up to the skipped SSN in order, then continues past it.
    mutating func skip(to ssn: UInt16, deliver: inout [SCTPMessage]) -> Int {
        guard !ssn.ssnLess(expectedSSN) else { return 0 }
        var delta = 0
        let ready = pendingOrdered.keys.filter { !ssn.ssnLess($0) }.sorted { $0.ssnLess($1) }
        for s in ready {
            if let m = pendingOrdered.removeValue(forKey: s) {
                pendingOrderedBytes -= m.payload.count
                delta -= m.payload.count
                deliver.append(m)
            }
        }
        expectedSSN = ssn &+ 1
        return delta + drainOrdered(deliver: &deliver)
    }

    mutating func reset() -> Int {
        let freed = pendingOrderedBytes
        expectedSSN = 0
        pendingOrdered = [:]
        pendingOrderedBytes = 0
        return -freed
    }
}
