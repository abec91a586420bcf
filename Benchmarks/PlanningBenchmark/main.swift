// Planning a day's scheduled notifications (the 20:00 daily check-in reminder and the other daily types of
// the `fitcircle` profile) for many synthetic users spread over every IANA zone, with preferences, next to
// a baseline measured in the same run: a plain keyset SELECT of the same user rows, page by page, through
// the same driver. Run with scripts/bench-planning.sh, which builds this in release mode.
import FitCircleCore
import FitCircleEngine
import FitCircleServer
import FitCircleStore
import Foundation
import Logging

let arguments = CommandLine.arguments
guard arguments.count > 1, arguments[1].hasPrefix("postgres") else {
    print("usage: PlanningBenchmark <postgres URL> [users] [users with a check-in history]")
    exit(2)
}
let userCount = arguments.count > 2 ? Int(arguments[2]) ?? 1_000_000 : 1_000_000
let withHistory = arguments.count > 3 ? Int(arguments[3]) ?? userCount / 100 : userCount / 100
let pageSize = 1_000
let date = LocalDate(year: 2026, month: 3, day: 2)!  // a Monday

var logger = Logger(label: "bench")
logger.logLevel = .warning
let clock = WallClock.system
let store = try await Store.open(try DatabaseLocation(url: arguments[1]), logger: logger)
let profilesDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(
    "profiles"
)
let profile = try RuleProfileLoader.load(named: "fitcircle", from: profilesDirectory)
let zones = TimeZone.knownTimeZoneIdentifiers.filter { TimeZone(identifier: $0) != nil }.sorted()

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func report(_ label: String, rows: Int, _ elapsed: Duration) -> Double {
    let time = seconds(elapsed)
    print(
        "\(label.padding(toLength: 58, withPad: " ", startingAt: 0)) \(String(format: "%8d users in %6.2f s = %8.0f users/s", rows, time, Double(rows) / time))"
    )
    return time
}

/// Users spread round-robin over the zones, each with preferences saved (reminder times from 18:00 to
/// 21:30, quiet hours starting 21:00 to 23:00, as the preferences document and its columns on the user's
/// row); the first `withHistory` have 20 morning check-ins and the habitual time ingest would have kept
/// for them. Seeded in SQL: the benchmark measures planning, not seeding.
func seed() async throws {
    let zoneArray = "ARRAY[" + zones.map { "'\($0)'" }.joined(separator: ",") + "]"
    try await store.execute(
        unsafeSQL: """
            INSERT INTO users (id, email, role, display_name, weight_unit, height_unit, time_zone, visibility_age, visibility_weight,
                visibility_height, created_at, updated_at, reminder_time, quiet_start, quiet_end, send_habit)
            SELECT 'u' || lpad(i::text, 8, '0'), 'bench' || i || '@example.com', 'member', 'Bench', 'kg', 'cm',
                (\(zoneArray))[1 + i % \(zones.count)], 'friends', 'friends', 'friends', now(), now(),
                lpad((18 + i % 4)::text, 2, '0') || CASE WHEN i % 2 = 0 THEN ':00' ELSE ':30' END, lpad((21 + i % 3)::text, 2, '0') || ':00',
                '07:00', CASE WHEN i < \(withHistory) THEN '07:' || lpad((10 + i % 7)::text, 2, '0') END
            FROM generate_series(0, \(userCount - 1)) AS i
            """
    )
    try await store.execute(
        unsafeSQL: """
            INSERT INTO notification_preferences (user_id, preferences, updated_at)
            SELECT id, json_build_object('push', true, 'email', true, 'inApp', true, 'types', '{}'::json, 'reminderTime', reminder_time,
                    'quietStart', quiet_start, 'quietEnd', quiet_end, 'pauseWeekends', false, 'digest', '[]'::json)::text, now()
            FROM users
            """
    )
    try await store.execute(
        unsafeSQL: """
            INSERT INTO activity_events (id, user_id, client_event_id, kind, occurred_at, time_zone, local_date, source, received_at, payload, flags)
            SELECT u.id || '-' || d, u.id, 'check-in-' || d, 'check_in',
                ('2026-03-01 07:10'::timestamp - d * interval '1 day' + (d % 7) * interval '1 minute') AT TIME ZONE u.time_zone,
                u.time_zone, to_char(date '2026-03-01' - d, 'YYYY-MM-DD'), 'app', now(), '{}', '[]'
            FROM (SELECT id, time_zone FROM users ORDER BY id LIMIT \(withHistory)) AS u CROSS JOIN generate_series(0, 19) AS d
            """
    )
    try await store.execute(unsafeSQL: "ANALYZE")
}

try await withThrowingTaskGroup(of: Void.self) { group in
    group.addTask { await store.run() }
    try await store.migrate(now: clock.now())
    // The engine as `serve` assembles it, with dev login on.
    let engine = try await FitCircleNode(
        configuration: FitCircleConfiguration(
            [
                "devLogin": .bool(true), "profiles.directory": .string(profilesDirectory.path),
                "blobs.directory": .string(
                    FileManager.default.temporaryDirectory.appendingPathComponent("bench-blobs").path
                ),
            ],
            workingDirectory: FileManager.default.temporaryDirectory
        ),
        store: store,
        clock: clock
    ).engine

    // A database seeded by an earlier run is planned again from scratch (profiling runs reuse it).
    if try await store.read({ tx in try await tx.jobs.users(inTimeZone: zones[0], after: nil, limit: 1) }).isEmpty {
        let seeding = ContinuousClock.now
        try await seed()
        print(
            "seeded \(userCount) users over \(zones.count) zones (\(withHistory) with 20 check-ins) in \(String(format: "%.1f", seconds(ContinuousClock.now - seeding))) s"
        )
    } else {
        try await store.execute(unsafeSQL: "DELETE FROM jobs")
        print("reusing the seeded database")
    }
    let daily = ReminderPlanner.types(on: date, in: profile).map(\.type)
    print("types scheduled on \(date): \(daily.joined(separator: ", ")); page size \(pageSize)")

    /// The baseline: the same users, zone by zone, in pages of the same size, by a plain SELECT.
    func scan() async throws -> Int {
        var rows = 0
        for zone in zones {
            var after: User.ID?
            while true {
                let cursor = after
                let page = try await store.read { tx in
                    try await tx.jobs.users(inTimeZone: zone, after: cursor, limit: pageSize)
                }
                rows += page.count
                guard page.count == pageSize else { break }
                after = page.last
            }
        }
        return rows
    }
    _ = try await scan()  // warm the cache for both
    let scanStart = ContinuousClock.now
    let scanned = try await scan()
    let scanTime = report(
        "baseline: SELECT the users, zone by zone, 1,000 a page",
        rows: scanned,
        ContinuousClock.now - scanStart
    )

    let planStart = ContinuousClock.now
    for zone in zones {
        var after: User.ID?
        repeat {
            after = try await engine.reminders.planPage(zone: zone, date: date, after: after)
        } while after != nil
    }
    let planTime = report("planning: every daily type, zone by zone", rows: userCount, ContinuousClock.now - planStart)
    print(String(format: "ratio planning / SELECT: %.2f (target: at most 1.5)", planTime / scanTime))

    // Every user is planned once per type, and nothing else was queued.
    let triggers = try await store.read { tx in try await tx.jobs.all(kind: ReminderPlanner.trigger) }
    var planned: [String: Int] = [:]
    for job in triggers {
        let payload = try JSONSerialization.jsonObject(with: Data(job.payload.utf8)) as! [String: Any]
        planned[payload["type"] as! String, default: 0] += (payload["users"] as! [String]).count
    }
    print(
        "queued \(triggers.count) trigger jobs; users per type: \(planned.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))"
    )
    let missing = planned.values.contains { $0 != userCount } || planned.count != daily.count
    group.cancelAll()
    if missing {
        print("ERROR: expected each of the \(daily.count) daily types planned for all \(userCount) users")
        exit(1)
    }
}
