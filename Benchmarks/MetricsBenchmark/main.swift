// The operators' metrics request at scale: `report <database URL> [users] [days] [requests]` seeds that
// many accounts and the rollup rows such a population leaves over that many days (every metric, every
// day: what `Metrics.rollUp` writes), then times `GET /api/admin/metrics`'s work (`Metrics.report` over
// the whole range, by day and by week) next to a baseline in the same run — a plain `SELECT COUNT(*)
// FROM users` through the same store — interleaved, and prints the medians, the 99th percentiles and
// their ratio (scripts/bench-metrics.sh). `rollup …`: the nightly rollup of a day's events (Rollup.swift).
import FitCircleCore
import FitCircleEngine
import FitCircleStore
import Foundation
import Logging

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1_000 + Double(duration.components.attoseconds) / 1e15
}

func percentile(_ values: [Double], _ fraction: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
}

var logger = Logger(label: "bench")
logger.logLevel = .warning
let arguments = CommandLine.arguments
if arguments.count >= 3, arguments[1] == "rollup" {
    let store = try await Store.open(try DatabaseLocation(url: arguments[2]), logger: logger)
    let running = Task { await store.run() }
    _ = try await store.migrate(now: Date())
    try await rollupBenchmark(
        store,
        users: arguments.count > 3 ? Int(arguments[3]) ?? 1_000_000 : 1_000_000,
        each: arguments.count > 4 ? Int(arguments[4]) ?? 5 : 5
    )
    running.cancel()
    exit(0)
}
guard arguments.count >= 3, arguments[1] == "report" else {
    print(
        "usage: MetricsBenchmark report <database URL> [users] [days] [requests] | MetricsBenchmark rollup <database URL> [users] [events each]"
    )
    exit(2)
}
let (url, users, days, requests) = (
    arguments[2], arguments.count > 3 ? Int(arguments[3])! : 1_000_000, arguments.count > 4 ? Int(arguments[4])! : 90,
    arguments.count > 5 ? Int(arguments[5])! : 200
)
let store = try await Store.open(try DatabaseLocation(url: url), logger: logger)
let running = Task { await store.run() }
_ = try await store.migrate(now: Date())
let now = Date()
let last = LocalDate(now, in: .gmt).adding(days: -1)
let first = last.adding(days: -(days - 1))

/// PostgreSQL takes a million accounts one statement at a time in ten minutes or more, so there they are
/// made in SQL from a series (the columns without a default; only their number matters here) once the
/// operator has been inserted as the app inserts anyone.
func seedInSQL() async throws {
    try await store.transaction { tx in
        let profile = UserProfile(
            displayName: "Member 0",
            age: 30,
            weightKg: 70,
            timeZone: "Europe/Paris",
            onboardedAt: now
        )
        try await tx.users.insert(
            User(
                id: User.ID("bench-0"),
                email: "member0@bench.example",
                role: .operator,
                profile: profile,
                createdAt: now
            ),
            provider: "dev",
            subject: "member0@bench.example"
        )
    }
    try await insertAccounts(
        store,
        1..<users,
        createdAt: "now() - (i::bigint * 7919 % \(days * 86_400)) * interval '1 second'"
    )
    try await store.execute(unsafeSQL: "ANALYZE users")
}

let seeding = try await ContinuousClock().measure {
    if store.dialect == .postgres { try await seedInSQL() }
    for start in stride(from: 0, to: store.dialect == .postgres ? 0 : users, by: 2_000) {
        try await store.transaction { tx in
            for index in start..<min(users, start + 2_000) {
                let email = "member\(index)@bench.example"
                let profile = UserProfile(
                    displayName: "Member \(index)",
                    age: 30,
                    weightKg: 70,
                    timeZone: "Europe/Paris",
                    onboardedAt: now
                )
                let made = now.addingTimeInterval(-Double((index * 7_919) % (days * 86_400)))  // spread over the range
                try await tx.users.insert(
                    User(
                        id: User.ID("bench-\(index)"),
                        email: email,
                        role: index == 0 ? .operator : .member,
                        profile: profile,
                        createdAt: made
                    ),
                    provider: "dev",
                    subject: email
                )
            }
        }
        if start % 100_000 == 0 { print("  \(start) accounts…") }
    }
    // Each day's rows as the rollup writes them, at the scale of this population.
    var day = first
    while day <= last {
        var facts = DayFacts(day: day)
        facts.accounts = users
        facts.users = users
        facts.active = users / 4
        facts.activeWeek = users / 2
        facts.activeMonth = users * 7 / 10
        facts.dailyGoals = (users / 3, users / 5)
        facts.weeklyGoals = day.weekday == .sunday ? (users / 3, users / 6) : nil
        facts.circleMembers = day.weekday == .sunday ? (users / 2, users / 5) : nil
        facts.pushUsers = users * 3 / 4
        facts.pushDelivered = users / 2
        facts.emailsDelivered = users / 10
        let rows = facts.rows
        try await store.transaction { tx in try await tx.metrics.save(rows, at: now) }
        day = day.adding(days: 1)
    }
}
let rows = try await store.read { tx in try await tx.metrics.rows(from: first.adding(days: -30), to: last) }.count
print("seeded \(users) accounts and \(rows) rollup rows (\(days) days) in \(Int(milliseconds(seeding) / 1_000)) s")

let operatorAccount = try await store.read { tx in try await tx.users.find(User.ID("bench-0")) }!
let caller = Caller(user: operatorAccount, sessionID: Session.ID("bench"))
let metrics = Metrics(
    store: store,
    profile: try RuleProfileLoader.load(named: "fitcircle", from: URL(fileURLWithPath: "profiles")),
    clock: .system
)
var (byDay, byWeek, counts): ([Double], [Double], [Double]) = ([], [], [])
for round in 0..<(requests + 10) {
    let count = try await ContinuousClock().measure {
        _ = try await store.read { tx in try await tx.metrics.userCount() }
    }
    let daily = try await ContinuousClock().measure {
        _ = try await metrics.report(from: first, to: last, granularity: .day, by: caller)
    }
    let weekly = try await ContinuousClock().measure {
        _ = try await metrics.report(from: first, to: last, granularity: .week, by: caller)
    }
    if round >= 10 {  // the first ten warm up
        counts.append(milliseconds(count))
        byDay.append(milliseconds(daily))
        byWeek.append(milliseconds(weekly))
    }
}
func line(_ name: String, _ values: [Double]) -> String {
    String(
        format: "%@ p50 %8.2f ms   p99 %8.2f ms",
        name.padding(toLength: 48, withPad: " ", startingAt: 0),
        percentile(values, 0.5),
        percentile(values, 0.99)
    )
}
print(line("SELECT COUNT(*) FROM users (baseline)", counts))
print(line("metrics report, \(days) days by day", byDay))
print(line("metrics report, \(days) days by week", byWeek))
print(
    String(
        format: "ratio of medians (report by day / COUNT(*)): %.2f; by week: %.2f",
        percentile(byDay, 0.5) / percentile(counts, 0.5),
        percentile(byWeek, 0.5) / percentile(counts, 0.5)
    )
)
running.cancel()
