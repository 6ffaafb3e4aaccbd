import TernCore

/// Which fraction of the camera's picture the video encoder gets, from the bitrate its share of
/// the bandwidth estimate allows: a picture too large for its bitrate is blocky and, on a slow
/// link, its keyframes alone fill the queue, so the picture shrinks (by 2, then 4 in each
/// direction) when the bitrate falls below what its size needs, and grows back when the bitrate
/// has room for the larger size again (W3C `degradationPreference` "balanced" steps resolution;
/// libvpx's frame dropping takes care of the frame rate). Sans-I/O: rate, source size and time
/// in, a divisor out.
///
/// The picture shrinks once the bitrate has been short for a second (or at once under half of
/// the need): an estimate that dips for a moment while it drains a queue does not cost a
/// keyframe and five seconds at the smaller size.
///
/// What a size needs: 0.5 kbit/s per thousand pixels at 30 frames/s (640×480: 154 kbit/s,
/// 320×240: 38 kbit/s), about where libwebrtc's minimum bitrates per resolution sit. Growing
/// back needs 2.5 × that of the larger size (640×480: 384 kbit/s, near the bitrate libwebrtc
/// wants before it sends that size) for 5 s without a break, and 5 s since the last change, so
/// an estimate that oscillates (or jumps on a probe that a shaper's burst let through) does not
/// flip the size (each change costs a keyframe, and a larger picture at the
/// edge of its bitrate brings a queue back).
struct ResolutionLadder {
    /// Each step halves width and height.
    static let divisors = [1, 2, 4]
    /// No step goes below this width (a smaller picture is not worth sending).
    static let minimumWidth = 160
    static let holdBeforeGrowing: Duration = .seconds(5)
    static let growthFactor = 2.5

    private(set) var divisor = 1
    private var lastChange: Instant?
    /// Since when the bitrate has had room for the larger size without a break.
    private var roomSince: Instant?
    /// Since when the bitrate has been short of what the current size needs without a break.
    private var shortSince: Instant?
    static let holdBeforeShrinking: Duration = .seconds(1)

    /// kbit/s a picture of this size needs at 30 frames/s.
    static func neededKbps(width: Int, height: Int) -> Double {
        Double(width * height) * 0.5 / 1000
    }

    /// The divisor for a `width` × `height` source at `targetKbps`, at `now`.
    mutating func update(targetKbps: Int, width: Int, height: Int, now: Instant) -> Int {
        let target = Double(targetKbps)
        guard let index = Self.divisors.firstIndex(of: divisor) else { return divisor }
        if index + 1 < Self.divisors.count {
            let next = Self.divisors[index + 1]
            let needed = Self.neededKbps(width: width / divisor, height: height / divisor)
            if target < needed, width / next >= Self.minimumWidth {
                // A dip shorter than `holdBeforeShrinking` (an estimate draining a queue) keeps
                // the size, unless it is under half of what the size needs.
                let since = shortSince ?? now
                shortSince = since
                if now - since >= Self.holdBeforeShrinking || target < needed / 2 {
                    divisor = next
                    lastChange = now
                    shortSince = nil
                    return divisor
                }
            } else {
                shortSince = nil
            }
        }
        if index > 0 {
            let larger = Self.divisors[index - 1]
            guard target >= Self.growthFactor * Self.neededKbps(width: width / larger, height: height / larger) else {
                roomSince = nil
                return divisor
            }
            let since = roomSince ?? now
            roomSince = since
            let held = lastChange.map { now - $0 >= Self.holdBeforeGrowing } ?? true
            if held, now - since >= Self.holdBeforeGrowing {
                divisor = larger
                lastChange = now
                roomSince = nil
            }
        }
        return divisor
    }
}
