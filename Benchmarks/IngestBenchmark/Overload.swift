// Overload: requests offered at a fixed rate (open loop: each is sent on time, whatever the earlier ones
// are doing), first at the rate the server sustains, then at twice that. A node past its limit on requests
// in flight refuses at once with 503; what it admits should then be served about as fast as at the sustainable rate.
import Foundation

/// What an open-loop run saw.
struct OfferedLoad {
    var offered = 0
    var admitted = 0
    /// 429 or 503: refused by the limits.
    var refused = 0
    /// Anything else: errors, timeouts, other statuses.
    var failed = 0
    var admittedLatencies: [Double] = []

    func percentile(_ p: Double) -> Double {
        guard !self.admittedLatencies.isEmpty else { return .nan }
        let sorted = self.admittedLatencies.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
    }

    var summary: String {
        String(
            format: "offered %6d, admitted %6d, refused %5.1f%%, failed %d; admitted p50 %6.1f ms, p99 %7.1f ms",
            self.offered,
            self.admitted,
            100 * Double(self.refused) / Double(max(self.offered, 1)),
            self.failed,
            self.percentile(0.5) * 1000,
            self.percentile(0.99) * 1000
        )
    }
}

/// Sends `rate` requests a second for `seconds`; `send` answers a request's status (nil: it failed).
func offer(rate: Double, seconds: Double, _ send: @escaping @Sendable (Int) async -> Int?) async -> OfferedLoad {
    let count = Int(rate * seconds)
    let start = ContinuousClock.now
    return await withTaskGroup(of: (Int?, Double).self) { group in
        for index in 0..<count {
            let due = start + .seconds(Double(index) / rate)
            if due > .now { try? await Task.sleep(until: due, clock: .continuous) }
            group.addTask {
                let sent = ContinuousClock.now
                let status = await send(index)
                let elapsed = ContinuousClock.now - sent
                return (status, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
            }
        }
        var load = OfferedLoad(offered: count)
        for await (status, latency) in group {
            switch status {
            case let status? where (200..<300).contains(status):
                load.admitted += 1
                load.admittedLatencies.append(latency)
            case 429?, 503?: load.refused += 1
            default: load.failed += 1
            }
        }
        return load
    }
}
