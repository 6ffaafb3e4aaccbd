import Testing
@testable import TernPeer

/// How the bandwidth estimate is shared between the encoders (audio first).
@Suite struct BitrateAllocationTests {
    @Test("with room, both encoders keep their configured rates",
          arguments: [1_000_000.0, 2_500_000.0])
    func roomKeepsConfiguredRates(target: Double) {
        #expect(BitrateAllocation(target: target, audioBitrate: 32_000, videoBitrateKbps: 800)
                == BitrateAllocation(audioBitsPerSecond: 32_000, videoKbps: 800))
    }

    @Test("a constrained path takes video down first; audio keeps its rate while the target is four times it")
    func videoGivesWayFirst() {
        // 300 kbit/s: 32 for audio and 25.6 for its 50 packets' headers; 242.4 for video with
        // its headers, 229 of it payload.
        #expect(BitrateAllocation(target: 300_000, audioBitrate: 32_000, videoBitrateKbps: 800)
                == BitrateAllocation(audioBitsPerSecond: 32_000, videoKbps: 229))
        #expect(BitrateAllocation(target: 128_000, audioBitrate: 32_000, videoBitrateKbps: 800).audioBitsPerSecond == 32_000)
    }

    @Test("below that, audio takes a quarter of the target down to 16 kbit/s; video never under 50 kbit/s")
    func audioFloorAndVideoFloor() {
        #expect(BitrateAllocation(target: 200_000, audioBitrate: 32_000, videoBitrateKbps: 800)
                == BitrateAllocation(audioBitsPerSecond: 32_000, videoKbps: 134))
        #expect(BitrateAllocation(target: 100_000, audioBitrate: 32_000, videoBitrateKbps: 800)
                == BitrateAllocation(audioBitsPerSecond: 25_000, videoKbps: 50))
        #expect(BitrateAllocation(target: 40_000, audioBitrate: 32_000, videoBitrateKbps: 800)
                == BitrateAllocation(audioBitsPerSecond: 16_000, videoKbps: 50))
    }

    @Test("configured rates are ceilings: never raised, audio at most 64 kbit/s, a low audio rate never raised to 16 kbit/s")
    func configuredRatesAreCeilings() {
        #expect(BitrateAllocation(target: 5_000_000, audioBitrate: 128_000, videoBitrateKbps: 300)
                == BitrateAllocation(audioBitsPerSecond: 64_000, videoKbps: 300))
        #expect(BitrateAllocation(target: 30_000, audioBitrate: 12_000, videoBitrateKbps: 800).audioBitsPerSecond == 12_000)
    }
}
