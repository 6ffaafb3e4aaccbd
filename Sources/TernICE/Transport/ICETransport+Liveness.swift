import Synchronization
import TernCore

// Silence on the selected pair, reported as W3C `disconnected` (webrtc-pc §5.6: "checks to ensure
// that components are still connected failed"; may resolve on its own). libnice notices a dead
// path only when consent expires (10 s in 0.1.21), far too late for a call to start its ICE
// restart while the user is still waiting. Tern's round-trip probes (ICETransport+RTT.swift) go
// out every `roundTripProbeInterval` and a Tern peer answers each, so once the peer has answered
// one, a pair that delivers nothing for `disconnectedTimeout` has lost its path: `disconnected`
// then, and back to connected with the first datagram that arrives. A peer that does not answer
// probes (not Tern) may be silent when idle, so for it only consent expiry counts.
// Runs on the loop thread, except `noteInbound`'s fast path (atomics).
extension ICETransport {
    /// A datagram arrived on the transport: records the time and ends a silence.
    func noteInbound() {
        lastInboundNanoseconds.store(clock.now().nanoseconds, ordering: .relaxed)
        if silent.load(ordering: .relaxed) { endSilence() }
    }

    /// Called from the probe timer: reports `disconnected` after `disconnectedTimeout` of silence.
    func checkLiveness(now: Instant) {
        guard let timeout = configuration.disconnectedTimeout, !silent.load(ordering: .relaxed) else { return }
        let quiet = now - Instant(nanoseconds: lastInboundNanoseconds.load(ordering: .relaxed))
        guard quiet >= timeout else { return }
        state.withLock { s in
            guard !s.closed, s.selectedPair != nil, s.rtt.responsesReceived > 0,
                  s.transportState == .connected || s.transportState == .completed else { return }
            silent.store(true, ordering: .relaxed)
            s.stateBeforeSilence = s.transportState
            s.transportState = .disconnected
            s.stateGeneration += 1
            let ms = Int(quiet.nanoseconds / 1_000_000)
            record(.stateChanged(state: .disconnected, libniceState: "ready (nothing received for \(ms) ms)"), in: &s)
            emit(.stateChanged(.disconnected))
        }
    }

    /// The first datagram after a silence: back to the state before it, unless something else
    /// (consent expiry, an ICE restart) has moved the state meanwhile.
    private func endSilence() {
        state.withLock { s in
            guard silent.exchange(false, ordering: .relaxed), !s.closed,
                  s.transportState == .disconnected, !s.consentLost else { return }
            let back = s.stateBeforeSilence ?? .connected
            s.transportState = back
            s.stateGeneration += 1
            record(.stateChanged(state: back, libniceState: "ready (packets again)"), in: &s)
            emit(.stateChanged(back))
        }
    }
}
