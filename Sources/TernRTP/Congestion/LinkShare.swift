public import TernCore

/// How one transport's bandwidth estimate is shared between its RTP media, which the estimate
/// sees through transport-wide feedback, and the data-channel traffic beside it (SCTP in DTLS,
/// RFC 8261), which it does not.
///
/// Left to its own loss-based congestion control, a bulk SCTP transfer fills a bottleneck's
/// drop-tail queue: the delay-based estimate reads that as congestion and takes the encoders to
/// their floors. So, while the estimate is informed by feedback and has found the path narrower
/// than its maximum, data channels are held to a rate. While both want more than they get, the
/// encoders are given `contendedMediaShare` of the estimate and the data channels the rest;
/// otherwise each may use what the other leaves (data always at least the rest). Encoders
/// undershoot what they are given and a tenth of the media's share goes to headers and RTCP, so
/// the media's part is the larger: a video that can use it keeps more than half of the path
/// (the interactive part of a call is what its users notice; a transfer is elastic), and
/// neither starves the other.
/// The data's rate is reported to the estimator as traffic it does not track
/// (`DelayBasedEstimator.untrackedRate`), so what the path delivers is not mistaken for the
/// media's share of it.
///
/// On a path at least as wide as the estimator's maximum the data channels are not held back:
/// the estimate cannot measure beyond its maximum, and a transfer there should run at what the
/// path gives. Sans-I/O: sizes and times in, rates out.
public struct LinkShare: Sendable {
    private var media = RateMeter()
    private var data = RateMeter()
    private var dataLastWaiting: Instant?
    /// How long after data last waited it still counts as wanting more.
    public static let dataWaitingHold: Duration = .seconds(1)

    public init() {}

    /// An RTP packet of `bytes` left at `now`.
    public mutating func mediaSent(_ bytes: Int, now: Instant) { media.add(bytes, at: now) }

    /// A data-channel (SCTP) packet of `bytes` left at `now`.
    public mutating func dataSent(_ bytes: Int, now: Instant) { data.add(bytes, at: now) }

    /// Data channels had more queued than they could send at `now`.
    public mutating func dataWaiting(now: Instant) { dataLastWaiting = now }

    /// Whether data channels wanted more than they were given within the last second.
    public func dataWantsMore(now: Instant) -> Bool {
        dataLastWaiting.map { now - $0 <= Self.dataWaitingHold } ?? false
    }

    /// Data-channel bits per second over the last second.
    public func dataRate(now: Instant) -> Double { data.bitsPerSecond(at: now) }

    /// Media bits per second over the last second.
    public func mediaRate(now: Instant) -> Double { media.bitsPerSecond(at: now) }

    /// The media's part of the estimate while data channels also want more. Near a capacity the
    /// path showed, the estimate holds at most `KnownCapacity.plateauShare` over it, so it sits a
    /// little under the link: at 0.65 a video that could use it kept 0.49 of a 2 Mbit/s lab link
    /// (Benchmarks/congestion/cc_call.py --scenario bulk, 4 sides, 0.46–0.50).
    public static let contendedMediaShare = 0.7

    /// The part of `target` (bit/s) the encoders may share: all of it, or
    /// `contendedMediaShare` while data channels want more.
    public func mediaTarget(_ target: Double, now: Instant) -> Double {
        dataWantsMore(now: now) ? target * Self.contendedMediaShare : target
    }

    /// The data channels' limit (bit/s) under `target`: what the media does not use, never less
    /// than the rest of its contended share. While the encoders want more than they are given
    /// (`mediaWantsMore`) the media keeps a quarter more than it uses, so it can grow into its
    /// share; an encoder that makes less than it is asked (a still picture) leaves the rest.
    public func dataLimit(_ target: Double, mediaWantsMore: Bool, now: Instant) -> Double {
        let used = media.bitsPerSecond(at: now)
        let reserved = mediaWantsMore ? used * Self.mediaHeadroom : used
        return target - min(reserved, target * Self.contendedMediaShare)
    }

    /// What the media keeps above its use while it wants more.
    public static let mediaHeadroom = 1.25
}
