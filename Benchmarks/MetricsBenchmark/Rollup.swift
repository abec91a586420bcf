import FitCircleCore
import FitCircleEngine
import FitCircleStore
import Foundation

/// `rollup <database URL> [users] [events each]`: that many accounts (made over the 100 days before) and, on
/// yesterday, that many events each (opens, check-ins, submissions, pushes delivered and opened: what the
/// rollup reads), made in SQL from a series; then the nightly rollup of that day (`Metrics.rollUp`) timed
/// three times next to a plain `COUNT(*)` of the day's events through the same store.
func rollupBenchmark(_ store: Store, users: Int, each: Int) async throws {
    let day = LocalDate(Date(), in: .gmt).adding(days: -1)
    let postgres = store.dialect == .postgres
    // The instant as each database keeps it (SQLite: REAL seconds since 1970).
    let now = postgres ? "now()" : "CAST(strftime('%s', 'now') AS REAL)"
    // Accounts made over the 100 days before, as a population grows: each day's cohort is 1 % of them.
    let madeBefore = postgres ? "now() - (i % 100) * interval '1 day'" : "\(now) - (i % 100) * 86400"
    let seeding = try await ContinuousClock().measure {
        try await insertAccounts(store, 0..<users, createdAt: madeBefore)
        let names = [
            ("app_opened", "app", "'{}'"),
            ("checkin_completed", "server", "'{\"sentiment\":true}'"),
            ("data_submitted", "server", "'{\"localHour\":8}'"),
            ("notification_delivered", "server", "'{\"channel\":\"push\",\"notificationId\":\"n' || (i / 5) || '\"}'"),
            ("notification_opened", "server", "'{\"minutes\":5,\"notificationId\":\"n' || (i / 5) || '\"}'"),
        ]
        let total = users * each
        for start in stride(from: 0, to: total, by: 250_000) {
            let cases = names.enumerated().map { index, name in "WHEN \(index) THEN \(name.2)" }.joined(separator: " ")
            let kinds = names.enumerated().map { index, name in "WHEN \(index) THEN '\(name.0)'" }.joined(
                separator: " "
            )
            let sources = names.enumerated().map { index, name in "WHEN \(index) THEN '\(name.1)'" }.joined(
                separator: " "
            )
            try await store.execute(
                unsafeSQL: """
                    INSERT INTO analytics_events (user_id, event_key, name, source, occurred_at, local_date, properties, received_at)
                    SELECT 'bench-' || (i % \(users)), 'e' || i, CASE i % 5 \(kinds) END, CASE i % 5 \(sources) END, \(now), '\(day.iso)',
                        CASE i % 5 \(cases) END, \(now)
                    FROM \(series(store, start, min(total, start + 250_000) - 1))
                    """
            )
            print("  \(min(total, start + 250_000)) events…")
        }
        if postgres {
            try await store.execute(unsafeSQL: "ANALYZE users")
            try await store.execute(unsafeSQL: "ANALYZE analytics_events")
        }
    }
    print(String(format: "seeded %d accounts and %d events in %.0f s", users, users * each, seconds(seeding)))
    let metrics = Metrics(
        store: store,
        profile: try RuleProfileLoader.load(named: "fitcircle", from: URL(fileURLWithPath: "profiles")),
        clock: .system
    )
    var (counts, rollups): ([Double], [Double]) = ([], [])
    for _ in 0..<3 {
        var events = 0
        counts.append(
            seconds(
                try await ContinuousClock().measure {
                    events = try await store.read { tx in try await tx.metrics.eventCount(from: day, to: day) }
                }
            )
        )
        rollups.append(seconds(try await ContinuousClock().measure { _ = try await metrics.rollUp(day) }))
        print(
            String(format: "  COUNT(*) of %d events %.2f s, rollup %.2f s", events, counts.last ?? 0, rollups.last ?? 0)
        )
    }
    let (count, rollup) = (counts.sorted()[1], rollups.sorted()[1])
    print(String(format: "medians: COUNT(*) %.2f s, rollup %.2f s; ratio %.1f", count, rollup, rollup / count))
}

/// Accounts `bench-<i>` for each i of `range`, made in SQL from a series, 100,000 a statement (the columns
/// without a default; only their number matters here), each made at `createdAt` (an SQL expression of `i`).
func insertAccounts(_ store: Store, _ range: Range<Int>, createdAt: String) async throws {
    for start in stride(from: range.lowerBound, to: range.upperBound, by: 100_000) {
        let last = min(range.upperBound, start + 100_000) - 1
        try await store.execute(
            unsafeSQL: """
                INSERT INTO users (id, email, role, display_name, weight_unit, height_unit, time_zone, visibility_age, visibility_weight,
                    visibility_height, created_at, updated_at)
                SELECT 'bench-' || i, 'member' || i || '@bench.example', 'member', 'Member ' || i, 'kg', 'cm', 'Europe/Paris', 'friends',
                    'friends', 'friends', \(createdAt), \(createdAt)
                FROM \(series(store, start, last))
                """
        )
        print("  \(last + 1) accounts…")
    }
}

/// The integers `first` to `last` as a table `s` of one column `i`, in the store's SQL.
func series(_ store: Store, _ first: Int, _ last: Int) -> String {
    store.dialect == .postgres
        ? "generate_series(\(first), \(last)) AS s(i)"
        : "(WITH RECURSIVE n(i) AS (SELECT \(first) UNION ALL SELECT i + 1 FROM n WHERE i < \(last)) SELECT i FROM n) AS s"
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}
