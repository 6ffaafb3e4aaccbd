import TernCore
import TernRTP

/// A drop-tail bottleneck in virtual time: a link of `rate` bits per second behind a buffer of
/// `bufferBytes`, then `delay` of propagation — what the network lab's TBF and delayer build.
/// With `burstBytes`, a token bucket as TBF keeps one: while it holds tokens, packets pass at
/// line rate (the lab's TBF has 16 KiB of burst, 437 ms at 300 kbit/s).
struct BottleneckLink {
    var rate: Double
    var bufferBytes: Int
    var delay: Duration
    var burstBytes = 0
    private var busyUntil = Instant.zero
    private var tokens = 0.0
    private var tokensAt = Instant.zero

    init(rate: Double, bufferBytes: Int, delay: Duration, burstBytes: Int = 0) {
        self.rate = rate
        self.bufferBytes = bufferBytes
        self.delay = delay
        self.burstBytes = burstBytes
        tokens = Double(burstBytes)
    }

    /// When a packet of `size` bytes offered at `now` arrives; nil when the buffer is full.
    mutating func send(size: Int, now: Instant) -> Instant? {
        if burstBytes > 0 {
            tokens = min(Double(burstBytes), tokens + (now - tokensAt).seconds * rate / 8)
            tokensAt = now
            if busyUntil <= now, tokens >= Double(size) {
                tokens -= Double(size)
                return now + delay
            }
        }
        let start = max(now, busyUntil)
        let queued = (start - now).seconds * rate / 8
        guard queued + Double(size) <= Double(bufferBytes) else { return nil }
        busyUntil = start + .nanoseconds(Int64(Double(size) * 8 / rate * 1e9))
        return busyUntil + delay
    }

    /// Nothing leaves the queue until `until` (a radio link's stall); packets keep queueing.
    /// The buffer counts the stall as time the queue is busy.
    mutating func stall(from now: Instant, until: Instant) {
        busyUntil = max(busyUntil, now) + (until - now)
    }

    /// How long a packet offered at `now` would wait in the queue.
    func queueDelay(at now: Instant) -> Duration { max(.zero, busyUntil - now) }
}

/// A sender whose rate follows a `BandwidthEstimator`, a receiver that reports arrivals with
/// transport-wide feedback every 100 ms (Tern's own `TransportWideCCRecorder`, through the RTCP
/// codec), and a bottleneck between them: all in virtual time, 1 ms steps.
struct CongestionScenario {
    var link: BottleneckLink
    var estimator: BandwidthEstimator
    var now = Instant.zero
    /// (arrival, transport-wide sequence or nil for data, size) of packets in flight to the receiver.
    private var inFlight: [(Instant, UInt16?, Int)] = []
    private var recorder = TransportWideCCRecorder()
    /// Feedback on its way back, with when it arrives.
    private var returning: [(Instant, TransportWideCC)] = []
    private var budget = 0.0
    private var nextFeedback = Instant.zero + .milliseconds(100)
    /// How often the receiver reports (`MediaEngine.transportFeedbackInterval(now:)`: 50 ms above ~220 kbit/s).
    var feedbackInterval: Duration = .milliseconds(50)
    var extraLoss: (UInt64) -> Bool = { _ in false }
    /// With a value: the sender is an encoder that wants this many bits per second (it sends
    /// the lower of that and the target) behind Tern's `Pacer`, which runs the estimator's probe
    /// clusters with 300-byte padding packets.
    var mediaWants: Double?
    private var pacer = Pacer<Int>(targetRate: 300_000)
    /// Padding packets sent for probes.
    private(set) var paddingPackets = 0
    /// With true, a bulk data transfer shares the link (SCTP beside the media): it always has
    /// more to send and sends what `LinkShare` allows, without transport-wide numbers; the
    /// encoder gets `LinkShare.mediaTarget`.
    var dataBacklogged = false
    /// The pacer holds all but audio while the estimator's congestion window is full.
    var congestionWindow = true
    private(set) var linkShare = LinkShare()
    private var dataBudget = 0.0
    /// Bytes that reached the receiver: media (with padding) and data, and when.
    private(set) var arrivals: [(at: Instant, size: Int, isData: Bool)] = []
    private var sent: UInt64 = 0
    /// Target and queue delay, every 100 ms.
    private(set) var trace: [(time: Double, target: Double, queueMs: Double)] = []
    /// With a value: the receiver's thread runs only now and then, as on a machine whose cores
    /// are all busy — it reads what arrived (each packet stamped with the time it is read) and
    /// reports at its wake-ups only, and after each wake-up sleeps for what this returns.
    var receiverSleeps: ((inout UInt64) -> Duration)?
    private var receiverWakes = Instant.zero
    private var sleepSeed: UInt64 = 0x9E37_79B9_7F4A_7C15

    init(link: BottleneckLink, configuration: BandwidthEstimator.Configuration) {
        self.link = link
        estimator = BandwidthEstimator(configuration: configuration)
    }

    mutating func run(for duration: Duration) {
        let end = now + duration
        while now < end {
            now += .milliseconds(1)
            if let wants = mediaWants {
                sendPaced(wants: wants)
            } else {
                // Send at the target: 1,200-byte packets as the budget allows.
                budget += estimator.targetRate / 8 / 1000
                while budget >= 1_200 {
                    budget -= 1_200
                    let sequence = estimator.packetSent(size: 1_200, now: now)
                    sent += 1
                    if !extraLoss(sent), let arrival = link.send(size: 1_200, now: now) { inFlight.append((arrival, sequence, 1_200)) }
                }
            }
            if dataBacklogged { sendData() }
            let receiverRuns = now >= receiverWakes
            if receiverRuns, let receiverSleeps { receiverWakes = now + receiverSleeps(&sleepSeed) }
            // Arrivals, recorded by the receiver.
            while receiverRuns, let first = inFlight.first, first.0 <= now {
                inFlight.removeFirst()
                let read = receiverSleeps == nil ? first.0 : now
                if let sequence = first.1 { recorder.record(transportSequenceNumber: sequence, at: read) }
                arrivals.append((first.0, first.2, first.1 == nil))
            }
            // Feedback every 100 ms, serialized and parsed as on the wire, back after the delay.
            if receiverRuns, now >= nextFeedback {
                nextFeedback = now + feedbackInterval
                if let feedback = recorder.makeFeedback(senderSSRC: 1, mediaSSRC: 2),
                   case let .transportWideCC(parsed)? = try? RTCPPacket.parseCompound(RTCPPacket.serialize([.transportWideCC(feedback)])).first {
                    returning.append((now + link.delay, parsed))
                }
            }
            if now.nanoseconds % 100_000_000 == 0 {
                trace.append((Double(now.nanoseconds) / 1e9, estimator.targetRate, link.queueDelay(at: now).seconds * 1000))
            }
            while let first = returning.first, first.0 <= now {
                returning.removeFirst()
                estimator.setUntrackedRate(linkShare.dataRate(now: now))
                estimator.handle(first.1, now: now)
            }
        }
    }

    /// An encoder at min(wants, target) into the pacer; the pacer's output (and probe padding)
    /// onto the link.
    private mutating func sendPaced(wants: Double) {
        if sent == 0 { estimator.mediaStarted(now: now, probingStartRate: 300_000) }
        let pushedBack = estimator.isInformed(now: now) ? estimator.pushedBack(estimator.targetRate) : estimator.targetRate
        let target = dataBacklogged ? linkShare.mediaTarget(pushedBack, now: now) : pushedBack
        estimator.encodersLimited = target < wants
        budget += min(wants, target) / 8 / 1000
        while budget >= 1_200 {
            budget -= 1_200
            pacer.enqueue(1_200, size: 1_200, priority: .video, now: now)
        }
        for cluster in estimator.takeProbeClusters() { pacer.startProbe(cluster) }
        for cluster in estimator.takeEndedClusters() { pacer.endProbe(cluster) }
        pacer.setTargetRate(estimator.targetRate)
        pacer.rateCeiling = estimator.pacingCeiling(now: now)
        pacer.windowRoom = congestionWindow ? estimator.windowRoom(now: now) : nil
        for item in pacer.poll(now: now, paddingPacketBytes: 300) {
            let (size, cluster): (Int, Int?)
            switch item {
            case let .packet(bytes, probeCluster): (size, cluster) = (bytes, probeCluster)
            case let .padding(bytes, probeCluster):
                (size, cluster) = (bytes, probeCluster)
                paddingPackets += 1
            }
            let sequence = estimator.packetSent(size: size, now: now, probeCluster: cluster)
            linkShare.mediaSent(size, now: now)
            sent += 1
            if !extraLoss(sent), let arrival = link.send(size: size, now: now) { inFlight.append((arrival, sequence, size)) }
        }
    }

    /// The bulk transfer: 1,200-byte packets at `LinkShare.dataLimit`, always with more waiting.
    private mutating func sendData() {
        linkShare.dataWaiting(now: now)
        dataBudget = min(dataBudget + linkShare.dataLimit(estimator.queueBasedRate, mediaWantsMore: estimator.encodersLimited, now: now) / 8 / 1000, 2_400)
        while dataBudget >= 1_200 {
            dataBudget -= 1_200
            linkShare.dataSent(1_200, now: now)
            if let arrival = link.send(size: 1_200, now: now) { inFlight.append((arrival, nil, 1_200)) }
        }
    }

    /// Bits per second that reached the receiver between `from` and `to` seconds: media, data.
    func delivered(from: Double, to: Double) -> (media: Double, data: Double) {
        let window = arrivals.filter { $0.at.nanoseconds >= Int64(from * 1e9) && $0.at.nanoseconds < Int64(to * 1e9) }
        let media = window.filter { !$0.isData }.reduce(0) { $0 + $1.size }
        let data = window.filter(\.isData).reduce(0) { $0 + $1.size }
        return (Double(media) * 8 / (to - from), Double(data) * 8 / (to - from))
    }

    /// The trace every `seconds` seconds, as text for a failing expectation.
    func samples(every seconds: Int) -> String {
        trace.enumerated().filter { $0.offset % (seconds * 10) == 9 }
            .map { "t=\(Int($0.element.time))s \(Int($0.element.target / 1000))k q\(Int($0.element.queueMs))ms" }
            .joined(separator: " ")
    }

    /// Mean target and queue delay over the trace's samples after `from` seconds.
    func mean(after from: Double) -> (target: Double, queueMs: Double) {
        let tail = trace.filter { $0.time >= from }
        guard !tail.isEmpty else { return (0, 0) }
        return (tail.map(\.target).reduce(0, +) / Double(tail.count), tail.map(\.queueMs).reduce(0, +) / Double(tail.count))
    }
}
