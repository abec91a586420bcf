import FitCircleCore
import Testing

/// The adaptive limit on requests in flight, against a node simulated in virtual time: each request takes
/// `base` while no more than `knee` are in flight, and longer in proportion beyond (they share the cores).
struct ConcurrencyLimitTests {
    static let millisecond: UInt64 = 1_000_000

    /// A node that always has more requests waiting than its limit lets in, for `seconds`; answers the
    /// latency its requests saw at the end.
    @discardableResult
    static func overload(
        _ limit: inout ConcurrencyLimit,
        knee: Double,
        base: UInt64 = 2 * millisecond,
        seconds: Double,
        from start: UInt64 = 0
    ) -> (latency: UInt64, end: UInt64) {
        var now = start
        var latency = base
        while now - start < UInt64(seconds * 1e9) {
            let inFlight = limit.limit
            latency = UInt64(Double(base) * max(1, Double(inFlight) / knee))
            limit.record(
                admittedAt: now - min(now, latency),
                duringProbe: limit.isProbing,
                inFlight: inFlight,
                now: now
            )
            now += max(1, latency / UInt64(max(1, inFlight)))
        }
        return (latency, now)
    }

    /// A node under light load: `inFlight` requests at a time, each `latency`.
    static func steady(
        _ limit: inout ConcurrencyLimit,
        inFlight: Int,
        latency: UInt64,
        seconds: Double,
        from start: UInt64
    ) -> UInt64 {
        var now = start
        while now - start < UInt64(seconds * 1e9) {
            limit.record(
                admittedAt: now - min(now, latency),
                duringProbe: limit.isProbing,
                inFlight: inFlight,
                now: now
            )
            now += latency / UInt64(inFlight)
        }
        return now
    }

    @Test
    func anIdleNodeKeepsItsStartingLimitAndLearnsItsLatency() {
        var limit = ConcurrencyLimit(.init(minimum: 8, maximum: 512, initial: 32), now: 0)
        _ = Self.steady(&limit, inFlight: 3, latency: 2 * Self.millisecond, seconds: 5, from: 0)
        #expect(limit.limit == 32)
        #expect(limit.baseline == 2 * Self.millisecond)
    }

    @Test
    func underOverloadTheLimitSettlesWhereThroughputIsFullAndLatencyNearItsUsual() {
        for knee in [10.0, 40.0, 150.0] {
            var limit = ConcurrencyLimit(.init(minimum: 4, maximum: 2_000, initial: 32), now: 0)
            var now = Self.steady(&limit, inFlight: 2, latency: 2 * Self.millisecond, seconds: 1, from: 0)
            now = Self.overload(&limit, knee: knee, seconds: 10, from: now).end
            let settled = Self.overload(&limit, knee: knee, seconds: 5, from: now)
            // At the knee or beyond, the node's throughput is full; within four times the knee, latency is
            // within four times the usual (tolerance 3 and the square root of headroom).
            #expect(Double(limit.limit) >= knee, "knee \(knee): limit \(limit.limit)")
            #expect(Double(limit.limit) <= 4 * knee, "knee \(knee): limit \(limit.limit)")
            #expect(settled.latency <= 4 * 2 * Self.millisecond, "knee \(knee): latency \(settled.latency)")
        }
    }

    @Test
    func whenTheNodeSlowsTheLimitShrinksAndStopsAtItsMinimum() {
        var limit = ConcurrencyLimit(.init(minimum: 8, maximum: 512, initial: 256), now: 0)
        var now = Self.steady(&limit, inFlight: 2, latency: 2 * Self.millisecond, seconds: 1, from: 0)
        // Every request now takes fifty times as long, however few are in flight (a database gone slow).
        let start = now
        while now - start < 5_000 * Self.millisecond {
            let inFlight = limit.limit
            limit.record(admittedAt: now - 100 * Self.millisecond, duringProbe: false, inFlight: inFlight, now: now)
            now += 100 * Self.millisecond / UInt64(inFlight)
        }
        #expect(limit.limit == 8)
    }

    @Test
    func aNodeBusyPastTheBaselinesLifetimeProbesAtItsMinimumThenResumes() {
        let settings = ConcurrencyLimit.Settings(
            minimum: 4,
            maximum: 512,
            initial: 32,
            baselineLifetime: 2_000 * Self.millisecond
        )
        var limit = ConcurrencyLimit(settings, now: 0)
        var now = Self.steady(&limit, inFlight: 2, latency: 2 * Self.millisecond, seconds: 1, from: 0)
        var probed = false
        let start = now
        while now - start < 3_500 * Self.millisecond {
            let inFlight = limit.limit
            let latency = UInt64(Double(2 * Self.millisecond) * max(1, Double(inFlight) / 20))
            if limit.isProbing { probed = true }
            limit.record(admittedAt: now - latency, duringProbe: limit.isProbing, inFlight: inFlight, now: now)
            now += latency / UInt64(inFlight)
        }
        #expect(probed)
        #expect(!limit.isProbing && limit.limit > 4)
        // The probe saw requests at the minimum, at the knee or below: the usual latency, not the loaded one.
        #expect(limit.baseline == 2 * Self.millisecond)
    }

    @Test
    func whileProbingOnlyWhatTheProbeAdmittedCounts() {
        var limit = ConcurrencyLimit(.init(minimum: 4, maximum: 512, initial: 64), now: 0)
        // Busy from the start: with no baseline yet it probes at once.
        var now: UInt64 = 0
        for _ in 0..<40 {
            now += Self.millisecond
            limit.record(admittedAt: 0, duringProbe: false, inFlight: 64, now: now)
        }
        now = 200 * Self.millisecond
        for _ in 0..<20 { limit.record(admittedAt: 0, duringProbe: false, inFlight: 64, now: now) }
        #expect(limit.isProbing && limit.limit == 4)
        // Answers of requests admitted before the probe (slow: they queued) are not the unqueued latency.
        for _ in 0..<100 {
            limit.record(admittedAt: now - 50 * Self.millisecond, duringProbe: false, inFlight: 60, now: now)
            now += Self.millisecond
        }
        #expect(limit.isProbing)
        for _ in 0..<16 {
            limit.record(admittedAt: now - 3 * Self.millisecond, duringProbe: true, inFlight: 4, now: now)
            now += Self.millisecond
        }
        #expect(!limit.isProbing && limit.limit == 64)
        #expect(limit.baseline == 3 * Self.millisecond)
    }

    /// Each request reads the clock before it takes the limit's lock, so readings arrive out of order (a
    /// release build trapped on the negative difference under load).
    @Test
    func readingsOlderThanTheLastOneRecordedAreTakenAsNoTime() {
        var limit = ConcurrencyLimit(.init(minimum: 4, maximum: 64, initial: 16), now: 500 * Self.millisecond)
        limit.record(admittedAt: 400 * Self.millisecond, duringProbe: false, inFlight: 3, now: 450 * Self.millisecond)
        limit.record(admittedAt: 900 * Self.millisecond, duringProbe: false, inFlight: 3, now: 800 * Self.millisecond)
        for step in 0..<40 as Range<UInt64> {
            limit.record(admittedAt: 0, duringProbe: false, inFlight: 16, now: step * Self.millisecond)
        }
        #expect(limit.limit >= 4 && limit.limit <= 64)
    }

    @Test
    func settingsOutOfOrderAreBroughtIntoOrder() {
        let settings = ConcurrencyLimit.Settings(minimum: 600, maximum: 512, initial: 1, tolerance: .nan)
        #expect(settings.minimum == 512 && settings.maximum == 512 && settings.initial == 512)
        #expect(settings.tolerance == 3)
    }
}
