import TernCore

/// Gives a video encoder less than its target while it sends more than it is given. libvpx's
/// CBR rate control keeps a buffer of up to a second (`rc_buf_sz` 1000 ms): when the target
/// falls, the credit it saved at the old rate is spent at the new one, and a picture whose
/// content needs more than the target at the highest quantizer overshoots for as long as it is
/// sent. On a bottleneck either keeps the queue full after the estimate has already come down.
/// libwebrtc measures each encoder's output against its target and scales the target by the
/// ratio (its EncoderBitrateAdjuster and EncoderOvershootDetector); this does the same over the
/// last second of frames. Sans-I/O: frames, targets and time in, a rate out.
struct EncoderRateAdjuster {
    /// The frames of the last `window`: when each was encoded, its size, and the target (bit/s)
    /// the encoder had for it.
    private var frames: [(at: Instant, bits: Double, target: Double)] = []

    static let window: Duration = .seconds(1)
    /// Utilization is read only over at least this much of the window (a few frames say little).
    static let minimumSpan: Duration = .milliseconds(500)
    /// The encoder is never given less than this share of its target: an encoder that
    /// overshoots even that is held by the pacer's backlog check, not starved here.
    static let minimumRatio = 0.5

    /// An encoded frame of `bytes` at `now`, produced with the encoder set to `target` bit/s
    /// (the adjusted rate: an encoder that overshoots by a steady factor then settles at its
    /// target, and one that overshot only while spending saved credit comes back to it).
    mutating func encoded(bytes: Int, target: Double, at now: Instant) {
        frames.append((now, Double(max(0, bytes)) * 8, max(0, target)))
        if let first = frames.firstIndex(where: { now - $0.at <= Self.window }), first > 0 {
            frames.removeFirst(first)
        }
    }

    /// What the encoder sent over the last second as a share of what it was given: each frame's
    /// bits against its target over the time since the frame before it. Nil over too short a span.
    var utilization: Double? {
        guard let first = frames.first, let last = frames.last, last.at - first.at >= Self.minimumSpan else { return nil }
        var sent = 0.0, given = 0.0
        for (previous, frame) in zip(frames, frames.dropFirst()) {
            sent += frame.bits
            given += frame.target * (frame.at - previous.at).seconds
        }
        return given > 0 ? sent / given : nil
    }

    /// The rate to set the encoder to for a `target` of bit/s: the target over the encoder's
    /// utilization while it sends more than it is given, the target itself otherwise.
    func adjusted(_ target: Double) -> Double {
        guard let utilization, utilization > 1 else { return target }
        return max(target * Self.minimumRatio, target / utilization)
    }
}
