import Testing
import TernCore
import TernRTP

/// The pacer in virtual time: what leaves, when, in which order, and what it refuses.
@Suite struct PacerTests {
    /// A packet: which queue it went to and its place in that queue.
    struct Tagged: Sendable, Hashable {
        var priority: Pacer<Tagged>.Priority
        var index: Int
    }

    /// Runs the pacer the way the transport does: polled at each enqueue and at each
    /// `nextTimeout`; returns what left, with when and its size.
    private func drive(_ pacer: inout Pacer<Tagged>, arrivals: [(at: Instant, size: Int, priority: Pacer<Tagged>.Priority)],
                       until end: Instant) -> [(at: Instant, size: Int, packet: Tagged)] {
        var sent: [(Instant, Int, Tagged)] = []
        var sizes: [Tagged: Int] = [:]
        var next = 0
        var counters: [Pacer<Tagged>.Priority: Int] = [:]
        var now = Instant.zero
        while now <= end {
            while next < arrivals.count, arrivals[next].at <= now {
                let arrival = arrivals[next]
                let tag = Tagged(priority: arrival.priority, index: counters[arrival.priority, default: 0])
                counters[arrival.priority, default: 0] += 1
                sizes[tag] = arrival.size
                pacer.enqueue(tag, size: arrival.size, priority: arrival.priority, now: now)
                next += 1
            }
            for packet in pacer.poll(now: now) { sent.append((now, sizes[packet] ?? 0, packet)) }
            let candidates = [pacer.nextTimeout, next < arrivals.count ? arrivals[next].at : nil].compactMap { $0 }
            guard let wake = candidates.min() else { break }
            now = max(wake, now + .nanoseconds(1))
        }
        return sent
    }

    @Test("over any 100 ms window the pacer sends at most its rate's bytes plus one packet, through keyframe bursts")
    func neverExceedsTheBudgetByMoreThanOnePacket() {
        let target = 400_000.0
        var pacer = Pacer<Tagged>(targetRate: target)
        var random = SeededRandom(seed: 7)
        var arrivals: [(at: Instant, size: Int, priority: Pacer<Tagged>.Priority)] = []
        // 30 fps video for 3 s, a 25-packet keyframe every second, 20 ms audio, random sizes.
        for frame in 0..<90 {
            let at = Instant.zero + .milliseconds(Int64(frame) * 33)
            let packets = frame % 30 == 0 ? 25 : 2
            for _ in 0..<packets { arrivals.append((at, 600 + Int(random.next() % 600), .video)) }
        }
        for tick in 0..<150 { arrivals.append((.zero + .milliseconds(Int64(tick) * 20), 120, .audio)) }
        arrivals.sort { $0.at < $1.at }
        let sent = drive(&pacer, arrivals: arrivals, until: .zero + .seconds(4))
        #expect(sent.count == arrivals.count, "everything left")
        let rateBytesPerSecond = target * pacer.configuration.pacingFactor / 8
        let window = Duration.milliseconds(100)
        let largest = arrivals.map(\.size).max() ?? 0
        for start in sent.map(\.at) {
            let bytes = sent.filter { $0.at >= start && $0.at < start + window }.reduce(0) { $0 + $1.size }
            #expect(Double(bytes) <= rateBytesPerSecond * window.seconds + Double(largest),
                    "\(bytes) bytes in the 100 ms from \(start)")
        }
    }

    @Test("audio leaves first, then retransmissions, then new video; each queue in order")
    func priorityOrder() {
        var pacer = Pacer<Tagged>(targetRate: 100_000)
        // Fill while the budget is spent: nothing may leave until it recovers.
        pacer.enqueue(Tagged(priority: .video, index: -1), size: 1_200, priority: .video, now: .zero)
        _ = pacer.poll(now: .zero)
        for index in 0..<3 {
            pacer.enqueue(Tagged(priority: .video, index: index), size: 1_000, priority: .video, now: .zero)
            pacer.enqueue(Tagged(priority: .retransmission, index: index), size: 1_000, priority: .retransmission, now: .zero)
            pacer.enqueue(Tagged(priority: .audio, index: index), size: 100, priority: .audio, now: .zero)
        }
        #expect(pacer.poll(now: .zero).isEmpty, "the first packet's bytes are still being paid for")
        var order: [Tagged] = []
        var now = Instant.zero
        while let next = pacer.nextTimeout, order.count < 9 {
            now = max(now, next)
            order += pacer.poll(now: now)
        }
        #expect(order.map(\.priority) == [.audio, .audio, .audio, .retransmission, .retransmission, .retransmission,
                                          .video, .video, .video])
        #expect(order.map(\.index) == [0, 1, 2, 0, 1, 2, 0, 1, 2])
        #expect(pacer.queuedBytes == 0 && Pacer<Tagged>.Priority.allCases.allSatisfy { pacer.queuedBytes($0) == 0 })
    }

    @Test("what waits is counted per queue as it is queued and as it leaves (the sender skips frames on the video queue's count)")
    func bytesWaitingPerQueue() {
        var pacer = Pacer<Tagged>(targetRate: 100_000)
        pacer.enqueue(Tagged(priority: .video, index: -1), size: 1_200, priority: .video, now: .zero)
        _ = pacer.poll(now: .zero)
        pacer.enqueue(Tagged(priority: .video, index: 0), size: 1_000, priority: .video, now: .zero)
        pacer.enqueue(Tagged(priority: .video, index: 1), size: 900, priority: .video, now: .zero)
        pacer.enqueue(Tagged(priority: .retransmission, index: 0), size: 800, priority: .retransmission, now: .zero)
        pacer.enqueue(Tagged(priority: .audio, index: 0), size: 100, priority: .audio, now: .zero)
        #expect(pacer.queuedBytes(.video) == 1_900 && pacer.queuedBytes(.retransmission) == 800 && pacer.queuedBytes(.audio) == 100)
        // 1,200 + 100 + 800 bytes at 250 kbit/s take 67 ms: then the audio and the
        // retransmission have left, the video waits.
        for millisecond in 1...67 { _ = pacer.poll(now: .zero + .milliseconds(Int64(millisecond))) }
        #expect(pacer.queuedBytes(.audio) == 0 && pacer.queuedBytes(.retransmission) == 0 && pacer.queuedBytes(.video) == 1_900)
        pacer.discardQueued()
        #expect(pacer.queuedBytes(.video) == 0)
    }

    @Test("a lower target spaces packets further apart, a higher one closer")
    func followsTheTarget() {
        func spacing(target: Double) -> Duration {
            var pacer = Pacer<Tagged>(targetRate: target)
            for index in 0..<2 { pacer.enqueue(Tagged(priority: .video, index: index), size: 1_250, priority: .video, now: .zero) }
            _ = pacer.poll(now: .zero)
            return (pacer.nextTimeout ?? .zero) - .zero
        }
        // 1,250 bytes at 2.5 × 1 Mbit/s take 4 ms; at 2.5 × 200 kbit/s, 20 ms.
        #expect(spacing(target: 1_000_000) == .milliseconds(4))
        #expect(spacing(target: 200_000) == .milliseconds(20))
    }

    @Test("a queue of more than 2 s at the pacing rate drains within 2 s, not at the rate")
    func staleQueueDrainsFaster() {
        var pacer = Pacer<Tagged>(targetRate: 100_000)  // 250 kbit/s pacing: 31,250 bytes/s
        let arrivals = (0..<200).map { _ in (at: Instant.zero, size: 1_000, priority: Pacer<Tagged>.Priority.video) }
        let sent = drive(&pacer, arrivals: arrivals, until: .zero + .seconds(10))
        #expect(sent.count == 200)
        // 200,000 bytes at the pacing rate would take 6.4 s.
        #expect((sent.last?.at ?? .zero) <= .zero + .milliseconds(2_100), "last left at \(String(describing: sent.last?.at))")
    }

    @Test("the congestion window's room holds packet by packet: a stale backlog released at once stops when the room is used, audio still leaves")
    func windowRoomHoldsABacklogReleasedAtOnce() {
        var pacer = Pacer<Tagged>(targetRate: 100_000)
        for index in 0..<60 { pacer.enqueue(Tagged(priority: .video, index: index), size: 1_000, priority: .video, now: .zero) }
        _ = pacer.poll(now: .zero)
        // 2.5 s later the oldest waited past `maximumQueueTime`: the rate alone would let all of it go.
        pacer.windowRoom = 4_500
        let released = pacer.poll(now: .zero + .milliseconds(2_500))
        #expect(released.count == 5, "4,500 bytes of room: four packets fit, the fifth takes the last of it")
        #expect(pacer.congested && pacer.nextTimeout == nil, "nothing to wake for until feedback sets the room again")
        pacer.enqueue(Tagged(priority: .audio, index: 0), size: 100, priority: .audio, now: .zero + .milliseconds(2_500))
        #expect(pacer.poll(now: .zero + .milliseconds(2_501)).map(\.priority) == [.audio])
        pacer.windowRoom = nil
        let waiting = pacer.queuedPackets
        let rest = stride(from: 2_502, through: 2_550, by: 6).reduce(0) { $0 + pacer.poll(now: .zero + .milliseconds(Int64($1))).count }
        #expect(waiting == 54 && rest == waiting, "without a window the stale rest leaves within 50 ms (the queue-time limit)")
    }

    @Test("past its packet limit the pacer refuses new packets and counts them")
    func boundedQueue() {
        var pacer = Pacer<Tagged>(targetRate: 100_000, configuration: .init(maximumQueuedPackets: 10))
        var accepted = 0
        for index in 0..<25 where pacer.enqueue(Tagged(priority: .video, index: index), size: 1_000, priority: .video, now: .zero) {
            accepted += 1
        }
        #expect(accepted == 10 && pacer.droppedPackets == 15 && pacer.queuedPackets == 10 && pacer.queuedBytes == 10_000)
        pacer.discardQueued()
        #expect(pacer.queuedPackets == 0 && pacer.queuedBytes == 0 && pacer.nextTimeout == nil)
    }

    @Test("isEmpty holds exactly while nextTimeout has nothing to wait for: empty, queued, probing, drained")
    func isEmptyMatchesNothingToWaitFor() {
        var pacer = Pacer<Tagged>(targetRate: 300_000)
        #expect(pacer.isEmpty && pacer.nextTimeout == nil)
        pacer.enqueue(Tagged(priority: .video, index: 0), size: 1_000, priority: .video, now: .zero)
        #expect(!pacer.isEmpty && pacer.nextTimeout != nil)
        _ = pacer.poll(now: .zero)
        #expect(pacer.isEmpty && pacer.nextTimeout == nil)
        pacer.startProbe(ProbeCluster(id: 1, rate: 600_000))
        #expect(!pacer.isEmpty && pacer.nextTimeout != nil, "a probe to run is work to wake for")
        pacer.discardQueued()
        #expect(pacer.isEmpty && pacer.nextTimeout == nil)
    }
}
