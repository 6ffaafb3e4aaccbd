import TernCore

/// How much of the camera's picture and frame rate the video encoder gets, from the bitrate its
/// share of the bandwidth estimate allows (W3C `degradationPreference` "balanced", as
/// libwebrtc's BalancedDegradationSettings run it: frame rate first, down to a floor that
/// depends on the picture size, then size). A picture too large for its bitrate is blocky and,
/// on a slow link, its keyframes alone fill the queue; a lower frame rate gives each frame more
/// bits at the same size, and a talking head loses less by it than by a quarter of its pixels.
/// A frame rate that rises brings the encoder's rate in over `frameRateRamp` (`encoderRateShare`):
/// libvpx's rate control takes the new rate at once but learns the smaller frames only over
/// several of them (measured, 640×480 with camera grain at 413 kbit/s, 15 → 30 frames/s: 1.5–1.6
/// × its target for 0.8 s, ~20 KB over, 300 ms of queue on a 500 kbit/s link). Starting at the
/// old frame rate's share of the new (15 → 30: a half) and growing linearly to all of it in a
/// second keeps each second after the rise within a few percent of the target (1.03 ×).
///
/// Sans-I/O: rate, source size and time in, a `Step` out.
///
/// The ladder for a 640×480 camera: 640×480 at 30 frames/s, at 15, 320×240 at 15, at 10,
/// 160×120 at 10 (the frame-rate floor is 15 for pictures above 320×240 and 10 at or below it;
/// sizes halve width and height, never under 160 wide; the source's rate is 30 frames/s, so
/// 15 and 10 are every second and every third frame).
///
/// A step down comes once the bitrate has been short of what the current step needs for a
/// second (or at once under half of the need): an estimate that dips for a moment while it
/// drains a queue does not cost a keyframe and five seconds at the smaller size.
///
/// What a step needs: 0.5 kbit/s per thousand pixels at 30 frames/s (640×480: 154 kbit/s,
/// 320×240: 38 kbit/s), about where libwebrtc's minimum bitrates per resolution sit; at half the
/// frame rate two thirds of that, at a third of it half (frames further apart differ more, so a
/// frame rate's bits do not fall in proportion). A step up needs 2.5 × what the step above needs
/// for 5 s without a break, and 5 s since the last change, so an estimate that oscillates (or
/// jumps on a probe that a shaper's burst let through) does not flip the picture (a new size
/// costs a keyframe, and a larger picture at the edge of its bitrate brings a queue back).
struct DegradationLadder {
    /// One rung: the picture divided by `divisor` in each direction, every `frameInterval`-th
    /// source frame encoded.
    struct Step: Equatable, CustomStringConvertible {
        var divisor: Int
        var frameInterval: Int
        var description: String { "÷\(divisor) every \(frameInterval)" }
    }

    static let divisors = [1, 2, 4]
    /// No step goes below this width (a smaller picture is not worth sending).
    static let minimumWidth = 160
    /// Pictures of more pixels than this keep every second frame at least; smaller ones every third.
    static let largePictureFloorPixels = 320 * 240
    static let holdBeforeGrowing: Duration = .seconds(5)
    static let holdBeforeShrinking: Duration = .seconds(1)
    static let growthFactor = 2.5
    static let frameRateRamp: Duration = .seconds(1)

    private(set) var step = Step(divisor: 1, frameInterval: 1)
    private var lastChange: Instant?
    /// Since when the bitrate has had room for the step above without a break.
    private var roomSince: Instant?
    /// Since when the bitrate has been short of what the current step needs without a break.
    private var shortSince: Instant?
    /// After the frame rate rose at the same picture size: the share of its rate the encoder
    /// got at first, and when.
    private var ramp: (from: Double, since: Instant)?

    /// The rungs for a `width` × `height` source, best first.
    static func steps(width: Int, height: Int) -> [Step] {
        var steps: [Step] = []
        for divisor in divisors where divisor == 1 || width / divisor >= minimumWidth {
            let floor = (width / divisor) * (height / divisor) > largePictureFloorPixels ? 2 : 3
            // Entering a size at the frame rate the step before it had (never above its floor).
            let first = min(steps.last?.frameInterval ?? 1, floor)
            for interval in [1, 2, 3] where interval >= first && interval <= floor {
                steps.append(Step(divisor: divisor, frameInterval: interval))
            }
        }
        return steps
    }

    /// kbit/s a step needs for a `width` × `height` source.
    static func neededKbps(_ step: Step, width: Int, height: Int) -> Double {
        let atFullRate = Double((width / step.divisor) * (height / step.divisor)) * 0.5 / 1000
        switch step.frameInterval {
        case 1: return atFullRate
        case 2: return atFullRate * 2 / 3
        default: return atFullRate / 2
        }
    }

    /// The step for a `width` × `height` source at `targetKbps`, at `now`.
    mutating func update(targetKbps: Int, width: Int, height: Int, now: Instant) -> Step {
        let target = Double(targetKbps)
        let steps = Self.steps(width: width, height: height)
        guard let index = steps.firstIndex(of: step) else {
            // The source changed size: the nearest rung of its ladder at this divisor.
            step = steps.last { $0.divisor <= step.divisor } ?? steps[0]
            return step
        }
        if index + 1 < steps.count {
            let needed = Self.neededKbps(step, width: width, height: height)
            if target < needed {
                let since = shortSince ?? now
                shortSince = since
                if now - since >= Self.holdBeforeShrinking || target < needed / 2 {
                    change(to: steps[index + 1], now: now)
                    return step
                }
            } else {
                shortSince = nil
            }
        }
        if index > 0 {
            let above = steps[index - 1]
            guard target >= Self.growthFactor * Self.neededKbps(above, width: width, height: height) else {
                roomSince = nil
                return step
            }
            let since = roomSince ?? now
            roomSince = since
            let held = lastChange.map { now - $0 >= Self.holdBeforeGrowing } ?? true
            if held, now - since >= Self.holdBeforeGrowing { change(to: above, now: now) }
        }
        return step
    }

    /// The share of its bitrate the encoder is given at `now`: 1, or less for `frameRateRamp`
    /// after the frame rate rose at the same picture size (a new size is a new encoder, whose
    /// rate control starts from its keyframe).
    func encoderRateShare(now: Instant) -> Double {
        guard let ramp else { return 1 }
        let progress = (now - ramp.since).seconds / Self.frameRateRamp.seconds
        return progress >= 1 ? 1 : ramp.from + (1 - ramp.from) * max(0, progress)
    }

    private mutating func change(to next: Step, now: Instant) {
        ramp = next.divisor == step.divisor && next.frameInterval < step.frameInterval
            ? (Double(next.frameInterval) / Double(step.frameInterval), now) : nil
        step = next
        lastChange = now
        shortSince = nil
        roomSince = nil
    }
}
