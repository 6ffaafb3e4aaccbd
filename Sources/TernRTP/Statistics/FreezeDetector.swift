public import TernCore

/// Video freezes as W3C webrtc-stats defines them for `inbound-rtp` (`freezeCount`,
/// `totalFreezesDuration`): the interval between two rendered frames is a freeze when it is at
/// least max(3 × the average interval, the average + 150 ms), the average taken over the last 30
/// intervals. Also the rendered frame rate over the last second (`framesPerSecond`). Sans-I/O:
/// each rendered frame comes with its instant.
public struct FreezeDetector: Sendable {
    /// Intervals the average is taken over (W3C: the last 30 rendered frames).
    public static let averagedIntervals = 30

    public private(set) var freezeCount = 0
    /// Seconds spent in freezes (the intervals counted as freezes, summed).
    public private(set) var totalFreezesDuration: Double = 0
    /// Frames rendered so far.
    public private(set) var framesRendered = 0
    /// When the first and the last frame were rendered.
    public private(set) var firstFrame: Instant?
    public private(set) var lastFrame: Instant?
    private var intervals: [Duration] = []
    private var intervalSum: Duration = .zero
    /// Frames of the last second, for `framesPerSecond`; at most `maximumRecentFrames` (a peer
    /// sending thousands of tiny frames a second must not make each frame cost a long walk).
    private var recent: [Instant] = []
    public static let maximumRecentFrames = 256

    public init() {}

    /// A frame was rendered at `now`.
    public mutating func frameRendered(at now: Instant) {
        framesRendered += 1
        if firstFrame == nil { firstFrame = now }
        if let last = lastFrame, now > last {
            let interval = now - last
            if !intervals.isEmpty {
                let average = intervalSum / intervals.count
                if interval >= max(average * 3, average + .milliseconds(150)) {
                    freezeCount += 1
                    totalFreezesDuration += interval.seconds
                }
            }
            intervals.append(interval)
            intervalSum += interval
            if intervals.count > Self.averagedIntervals { intervalSum -= intervals.removeFirst() }
        }
        lastFrame = max(lastFrame ?? now, now)
        recent.append(now)
        if let stale = recent.firstIndex(where: { now - $0 <= .seconds(1) }), stale > 0 { recent.removeFirst(stale) }
        if recent.count > Self.maximumRecentFrames { recent.removeFirst(recent.count - Self.maximumRecentFrames) }
    }

    /// Frames per second from the first rendered frame to the last (nil before two frames).
    public var averageFramesPerSecond: Double? {
        guard let firstFrame, let lastFrame, framesRendered > 1, lastFrame > firstFrame else { return nil }
        return Double(framesRendered - 1) / (lastFrame - firstFrame).seconds
    }

    /// Frames rendered in the second before `now` (W3C `framesPerSecond`).
    public func framesPerSecond(at now: Instant) -> Double {
        Double(recent.filter { now - $0 <= .seconds(1) && $0 <= now }.count)
    }
}
