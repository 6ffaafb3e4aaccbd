import Testing
import TernCore

@Suite("Instant and clocks")
struct TimeTests {
    @Test("instant arithmetic with durations is exact to the nanosecond")
    func instantArithmetic() {
        let start = Instant(nanoseconds: 1_000)
        let later = start + .milliseconds(5)
        #expect(later.nanoseconds == 5_001_000)
        #expect(later - start == .milliseconds(5))
        #expect((later - .milliseconds(5)) == start)
        #expect(Duration.milliseconds(1500).seconds == 1.5)
    }

    @Test("earliest of two optional deadlines ignores a missing one and is nil only when both are")
    func earliestOfOptionalDeadlines() {
        let early = Instant.zero + .milliseconds(5), late = Instant.zero + .milliseconds(9)
        #expect(Instant.earliest(early, late) == early && Instant.earliest(late, early) == early)
        #expect(Instant.earliest(nil, late) == late && Instant.earliest(early, nil) == early)
        #expect(Instant.earliest(nil, nil) == nil)
    }

    @Test("adding to distantFuture saturates instead of wrapping")
    func distantFutureSaturates() {
        #expect(Instant.distantFuture + .seconds(1) == .distantFuture)
    }

    @Test("a manual clock moves only when told and never backwards")
    func manualClockIsManual() {
        let clock = ManualClock()
        #expect(clock.now() == .zero)
        clock.advance(by: .milliseconds(20))
        #expect(clock.now() == Instant(nanoseconds: 20_000_000))
        clock.advance(to: .zero)
        #expect(clock.now() == Instant(nanoseconds: 20_000_000))
        clock.advance(by: .milliseconds(-5))
        #expect(clock.now() == Instant(nanoseconds: 20_000_000))
    }

    @Test("the system clock is monotonic")
    func systemClockIsMonotonic() {
        let clock = SystemClock()
        var previous = clock.now()
        for _ in 0..<1000 {
            let now = clock.now()
            #expect(now >= previous)
            previous = now
        }
    }
}
