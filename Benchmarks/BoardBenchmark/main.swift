// Circle boards. `index [entries]`: the in-memory rank index (`RankIndex`) on a board of a million entries —
// updates, ranks, the top 10 and a member's ±3 neighbourhood — with the memory each entry takes; the script
// measures Redis's sorted set on the same work in the same run. `seed <database URL> [members]`: a circle
// of that many onboarded members with a week of claims, for `wrk` against the real server. Run both with
// scripts/bench-boards.sh, which builds this in release mode.
import FitCircleCore
import FitCircleStore
import Foundation
import Logging

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// The resident memory of this process, in bytes (Linux).
func residentBytes() -> Int {
    let fields = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8))?.split(separator: " ") ?? []
    return (fields.count > 1 ? Int(fields[1]) ?? 0 : 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// xorshift64*: the same board every run.
struct Random {
    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    mutating func next(_ bound: Int) -> Int {
        self.state ^= self.state >> 12
        self.state ^= self.state << 25
        self.state ^= self.state >> 27
        return Int((self.state &* 0x2545_F491_4F6C_DD1D) % UInt64(bound))
    }
}

func indexBenchmark(entries: Int) {
    var random = Random()
    let users = (0..<entries).map { User.ID("m:\($0)") }
    let start = Date(timeIntervalSince1970: 1_772_442_000)
    func key(_ member: Int, _ value: Int) -> BoardKey {
        BoardKey(
            value: Double(value),
            reachedAt: start.addingTimeInterval(Double(random.next(86_400))),
            user: users[member]
        )
    }
    // At once from the keys in order (as a board is loaded), its memory counted from before the keys were
    // made; then one at a time (as a board fills).
    let before = residentBytes()
    var index = RankIndex()
    var keys = (0..<entries).map { key($0, random.next(100_000)) }
    keys.sort()
    let built = ContinuousClock().measure { index = RankIndex(keys) }
    keys = []
    let bytes = residentBytes() - before
    print(
        "built \(entries) entries at once in \(String(format: "%.2f", seconds(built))) s; resident memory \(bytes / 1_048_576) MiB = \(bytes / entries) bytes per entry"
    )
    var upserted = RankIndex()
    let insertedOneByOne = ContinuousClock().measure {
        for member in 0..<entries { upserted.upsert(key(member, random.next(100_000))) }
    }
    print("inserted \(entries) entries one by one in \(String(format: "%.2f", seconds(insertedOneByOne))) s")
    upserted = RankIndex()

    let operations = 1_000_000
    func run(_ label: String, _ body: (Int) -> Void) {
        let members = (0..<operations).map { _ in random.next(entries) }
        let elapsed = ContinuousClock().measure { for member in members { body(member) } }
        print(
            "\(label.padding(toLength: 44, withPad: " ", startingAt: 0)) \(String(format: "%10.0f ops/s  (%.2f µs/op)", Double(operations) / seconds(elapsed), seconds(elapsed) * 1e6 / Double(operations)))"
        )
    }
    var sink = 0
    run("update (move a member to a new value)") { index.upsert(key($0, random.next(100_000))) }
    run("rank of a member") { sink &+= index.rank(of: users[$0]) ?? 0 }
    run("top 10") { _ in sink &+= index.entries(ranks: 1...10).count }
    run("a member's rank and ±3 neighbours") { member in
        let rank = index.rank(of: users[member]) ?? 1
        sink &+= index.entries(ranks: max(1, rank - 3)...(rank + 3)).count
    }
    if sink == 42 { print("") }  // keeps the reads from being optimised away
}

/// A circle of `members` onboarded members (`member<i>@bench.example`, dev sign-in) with a week of claims
/// and its boards; prints the circle's id.
func seed(_ url: String, members: Int) async throws {
    let now = Date()
    try await withStore(url) { store in try await seed(store, members: members, now: now) }
}

/// The store at `url`, running and migrated, for `body`.
func withStore(_ url: String, _ body: (Store) async throws -> Void) async throws {
    var logger = Logger(label: "bench")
    logger.logLevel = .warning
    let store = try await Store.open(try DatabaseLocation(url: url), logger: logger)
    let running = Task { await store.run() }
    defer { running.cancel() }
    _ = try await store.migrate(now: Date())
    try await body(store)
}

func seed(_ store: Store, members: Int, now: Date) async throws {
    let zone = TimeZone(identifier: "Europe/Paris")!
    let today = LocalDate(now, in: zone)
    let weekStart = today.startOfWeek(startingOn: .monday)
    let circle = FitCircle(
        id: FitCircle.ID(UUID().uuidString.lowercased()),
        name: "Everyone",
        description: nil,
        metric: .steps,
        startDate: weekStart,
        endDate: nil,
        timeZone: zone.identifier,
        privacy: .public,
        memberLimit: 100_000,
        ownerID: User.ID("bench-0"),
        joinCode: "BENCH" + String(Int.random(in: 100...999)),
        createdAt: now
    )
    for first in stride(from: 0, to: members, by: 1_000) {
        try await store.transaction { tx in
            var random = Random(state: UInt64(first + 1) &* 0x9E37_79B9)
            for member in first..<min(members, first + 1_000) {
                let id = User.ID("bench-\(member)")
                let email = "member\(member)@bench.example"
                let profile = UserProfile(
                    displayName: "Member \(member)",
                    age: 30,
                    weightKg: 70,
                    timeZone: zone.identifier,
                    onboardedAt: now
                )
                try await tx.users.insert(
                    User(id: id, email: email, profile: profile, createdAt: now),
                    provider: "dev",
                    subject: email
                )
                if member == 0 { try await tx.circles.insert(circle) }
                try await tx.circles.insert(
                    CircleMembership(
                        circleID: circle.id,
                        userID: id,
                        role: member == 0 ? .owner : .member,
                        joinedAt: now
                    )
                )
                var claims: [CircleSubmission] = []
                for day in 0...today.days(since: weekStart) {
                    let at = now.addingTimeInterval(-Double(random.next(86_400 * 7)))
                    let claim = CircleSubmission(
                        circleID: circle.id,
                        userID: id,
                        date: weekStart.adding(days: day),
                        steps: 2_000 + random.next(14_000),
                        weightKg: nil,
                        checkinStreak: 0,
                        submittedAt: at,
                        updatedAt: at
                    )
                    try await tx.circles.save(claim)
                    claims.append(claim)
                }
                for period in BoardPeriod.allCases {
                    let start = period.start(of: today, weekStart: .monday, circleStart: weekStart)
                    if let score = BoardScore.score(
                        .steps,
                        on: period,
                        startingOn: start,
                        claims: claims,
                        membership: nil,
                        circleEnd: nil
                    ) {
                        try await tx.boards.saveScore(
                            BoardKey.truncated(value: score.value, reachedAt: score.reachedAt, user: id),
                            on: BoardID(circle: circle.id, period: period, start: start)
                        )
                    }
                }
            }
        }
    }
    print(circle.id.rawValue)
}

/// A board of `entries` rows written in SQL (and their accounts), then loaded as a node loads a board it
/// has not seen: the rows read in order through the store, and the index built from them.
func rebuild(_ url: String, entries: Int) async throws {
    try await withStore(url) { store in try await rebuild(store, entries: entries) }
}

func rebuild(_ store: Store, entries: Int) async throws {
    let board = BoardID(
        circle: FitCircle.ID("rebuild-board"),
        period: .allTime,
        start: LocalDate(clampingYear: 2026, month: 1, day: 5)
    )
    let series =
        store.dialect == .postgres
        ? "generate_series(0, \(entries - 1)) AS s (i)"
        : "(WITH RECURSIVE s (i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < \(entries - 1)) SELECT i FROM s) AS s"
    let seeding = try await ContinuousClock().measure {
        try await store.execute(
            unsafeSQL: """
                INSERT INTO users (id, email, role, display_name, weight_unit, height_unit, time_zone, visibility_age, visibility_weight,
                    visibility_height, created_at, updated_at)
                SELECT 'bench-' || i, 'member' || i || '@bench.example', 'member', 'Member ' || i, 'kg', 'cm', 'Europe/Paris', 'friends',
                    'friends', 'friends', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z'
                FROM \(series)
                """
        )
        try await store.execute(
            unsafeSQL: """
                INSERT INTO board_scores (owner_kind, owner_id, period, period_start, user_id, value, reached_ms)
                SELECT 'circle', 'rebuild-board', '\(board.period.rawValue)', '\(board.start.iso)', 'bench-' || i,
                    (i * CAST(7919 AS BIGINT)) % 100000, 1767225600000 + (i * CAST(104729 AS BIGINT)) % 604800000
                FROM \(series)
                """
        )
        try await store.execute(unsafeSQL: "ANALYZE")
    }
    print("seeded \(entries) rows in SQL in \(String(format: "%.1f", seconds(seeding))) s (\(store.dialect.rawValue))")
    for round in 1...3 {
        var keys: [BoardKey] = []
        let read = try await ContinuousClock().measure {
            keys = try await store.read { try await $0.boards.keys(board) }
        }
        var index = RankIndex()
        let built = ContinuousClock().measure { index = RankIndex(keys) }
        print(
            "round \(round): read \(keys.count) rows in \(String(format: "%.2f", seconds(read))) s, built the index in \(String(format: "%.2f", seconds(built))) s: \(String(format: "%.2f", seconds(read + built))) s in all (rank 1: \(index.entry(atRank: 1)?.user.rawValue ?? "-"))"
        )
    }
}

let arguments = CommandLine.arguments
switch arguments.dropFirst().first {
case "index":
    indexBenchmark(entries: arguments.count > 2 ? Int(arguments[2]) ?? 1_000_000 : 1_000_000)
case "rebuild" where arguments.count > 2:
    try await rebuild(arguments[2], entries: arguments.count > 3 ? Int(arguments[3]) ?? 1_000_000 : 1_000_000)
case "seed" where arguments.count > 2:
    try await seed(arguments[2], members: arguments.count > 3 ? Int(arguments[3]) ?? 50_000 : 50_000)
default:
    print(
        "usage: BoardBenchmark index [entries] | BoardBenchmark rebuild <database URL> [entries] | BoardBenchmark seed <database URL> [members]"
    )
    exit(2)
}
