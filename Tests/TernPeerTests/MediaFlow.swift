import TernPeer

/// Whether `track` receives `count` more frames (packets for audio) than it has now.
func receivesMore(_ track: RemoteTrack, count: Int = 25) async -> Bool {
    let start = track.framesReceived
    return await eventually { track.framesReceived >= start + count }
}

/// Whether `track` receives nothing while `sender` (on the other side, still fed by a
/// `MediaPump`) drops frames: first waits for `settle` dropped frames, so packets sent before the
/// change are delivered, then requires the track's count to stay put for `window` more.
/// Counted in frames the sender handled rather than in time, so a slow machine only waits longer.
func receivesNothing(_ track: RemoteTrack, while sender: RTPSender, settle: Int = 25, window: Int = 25) async -> Bool {
    let start = sender.framesDropped
    guard await eventually({ sender.framesDropped >= start + settle }) else { return false }
    let received = track.framesReceived
    guard await eventually({ sender.framesDropped >= start + settle + window }) else { return false }
    return track.framesReceived == received
}

/// Whether the counters only go up (the order the test pattern was sent in).
func strictlyIncreasing(_ counters: [UInt16]) -> Bool {
    zip(counters, counters.dropFirst()).allSatisfy { $0 < $1 }
}

extension PeerPair {
    /// Whether both sides reach W3C `connected` (within `eventually`'s bound).
    func bothConnected() async -> Bool {
        await eventually { caller.connectionState == .connected && callee.connectionState == .connected }
    }
}
