// Challenges at scale. `settle <database URL> [challenges] [participants each] [people]`: that many
// challenges, each with its participants (drawn from `people`, by default 100, so that one person is in
// many) staked and on its board, all ending at the same minute; then the settlement jobs
// a node runs for them (settle, then the payouts and the badge counters each queues; the notifications
// they raise are left queued: the notification engine is measured elsewhere), timed next to a baseline in
// the same run — a plain read of the same challenges' participant rows, challenge by challenge, through
// the same store. `board <database URL> [participants]`: one public challenge of that many participants
// on its board, for `wrk` against the real server (scripts/bench-challenges.sh).
import FitCircleCore
import FitCircleEngine
import FitCircleJobs
import FitCircleStore
import Foundation
import Logging

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

let logger: Logger = {
    var logger = Logger(label: "bench")
    logger.logLevel = .warning
    return logger
}()

func open(_ url: String) async throws -> (Store, Task<Void, Never>) {
    let store = try await Store.open(try DatabaseLocation(url: url), logger: logger)
    let running = Task { await store.run() }
    _ = try await store.migrate(now: Date())
    return (store, running)
}

/// `count` onboarded people, `bench-<i>` (`member<i>@bench.example` for the dev sign-in), each with XP.
func people(_ count: Int, in store: Store, now: Date) async throws -> [User.ID] {
    let ids = (0..<count).map { User.ID("bench-\($0)") }
    for first in stride(from: 0, to: count, by: 1_000) {
        try await store.transaction { tx in
            for index in first..<min(count, first + 1_000) {
                let email = "member\(index)@bench.example"
                let profile = UserProfile(
                    displayName: "Member \(index)",
                    age: 30,
                    weightKg: 70,
                    timeZone: "Europe/Paris",
                    onboardedAt: now
                )
                try await tx.users.insert(
                    User(id: ids[index], email: email, profile: profile, createdAt: now),
                    provider: "dev",
                    subject: email
                )
                try await tx.points.append(
                    [
                        PointsLine(
                            id: .init("seed-\(index)"),
                            date: LocalDate(now, in: .gmt),
                            amount: 100_000,
                            reason: .goalMet,
                            sourceKey: "seed",
                            createdAt: now
                        )
                    ],
                    of: ids[index]
                )
                try await tx.points.save(RewardStats(totalPoints: 100_000, level: 30), of: ids[index], at: now)
            }
        }
    }
    return ids
}

/// A challenge of `members` (staked, on the board), ending at `end`.
func challenge(
    _ index: Int,
    members: [User.ID],
    end: Date,
    stake: Int,
    visibility: Challenge.Visibility,
    in tx: Transaction,
    now: Date
) async throws -> Challenge {
    let challenge = Challenge(
        id: Challenge.ID(String(format: "c%08d", index)),
        name: "Bench \(index)",
        description: nil,
        type: .distance,
        rule: ChallengeType.distance.rule,
        visibility: visibility,
        joinCode: String(format: "B%07d", index),
        creatorID: members[0],
        timeZone: "Europe/Paris",
        startsAt: end.addingTimeInterval(-7 * 86_400),
        endsAt: end,
        stake: stake,
        minParticipants: 2,
        maxParticipants: 100_000,
        createdAt: now
    )
    try await tx.challenges.insert(challenge)
    for (offset, member) in members.enumerated() {
        try await tx.challenges.save(
            ChallengeParticipant(
                challengeID: challenge.id,
                userID: member,
                state: .joined,
                staked: stake,
                updatedAt: now
            )
        )
        try await tx.boards.saveScore(
            BoardKey.truncated(
                value: Double((index * 7 + offset * 13) % 50) + 1,
                reachedAt: end.addingTimeInterval(-Double(offset * 60 + 60)),
                user: member
            ),
            on: challenge.board
        )
    }
    try await tx.challenges.adjust(challenge.id, participants: members.count, escrow: stake * members.count)
    return challenge
}

func settleBenchmark(_ url: String, challenges: Int, participants: Int, population: Int?) async throws {
    let (store, running) = try await open(url)
    defer { running.cancel() }
    let now = Date()
    let people = try await people(population ?? max(participants * 4, 100), in: store, now: now)
    let end = now.addingTimeInterval(-Challenge.settlementGrace - 60)
    let seeding = ContinuousClock.now
    var ids: [Challenge.ID] = []
    for first in stride(from: 0, to: challenges, by: 500) {
        ids += try await store.transaction { tx in
            var made: [Challenge.ID] = []
            for index in first..<min(challenges, first + 500) {
                let members = (0..<participants).map { people[(index * participants + $0 * 7) % people.count] }
                let one = try await challenge(
                    index,
                    members: Array(Set(members)).sorted(),
                    end: end,
                    stake: 10,
                    visibility: .private,
                    in: tx,
                    now: now
                )
                made.append(one.id)
                try await tx.enqueue(
                    [
                        JobRecord(
                            id: "settle-\(index)",
                            kind: Challenges.settle,
                            payload: "{\"challenge\":\"\(one.id)\"}",
                            dedupeKey: "settle:\(one.id)",
                            runAt: end,
                            maxAttempts: 20
                        )
                    ],
                    at: now
                )
            }
            return made
        }
    }
    print(
        "seeded \(challenges) challenges of \(participants) in \(String(format: "%.1f", seconds(ContinuousClock.now - seeding))) s"
    )

    let baseline = try await ContinuousClock().measure {
        var rows = 0
        for id in ids { rows += try await store.read { tx in try await tx.challenges.participants(of: id).count } }
        precondition(rows >= challenges * 2)
    }
    let profile = try RuleProfileLoader.load(
        named: "famefit",
        from: URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("profiles")
    )
    let clock = WallClock.system
    let generator = IDGenerator(clock: clock)
    let engine = Challenges(
        store: store,
        profile: profile,
        ids: generator,
        clock: clock,
        events: BoardEvents(indexes: BoardIndexes()),
        analytics: EventRecorder(forward: false, webhooks: WebhookFanout(ids: generator))
    )
    let registry = try JobRegistry(owners: [engine])
    let runner = JobRunner(
        store: store,
        handlers: registry.handlers,
        batches: registry.batches,
        clock: clock,
        logger: logger
    )
    var jobs = 0
    let settling = try await ContinuousClock().measure {
        while true {
            let ran = try await runner.runDue(limit: 50)
            if ran == 0 { break }
            jobs += ran
        }
    }
    let settled = try await store.read { tx in try await tx.challenges.escrowBooks() }
    precondition(settled.allSatisfy { $0.escrow == 0 }, "every pot paid out")
    print(
        String(
            format: "plain read of their participant rows, challenge by challenge: %6.2f s = %8.0f challenges/s",
            seconds(baseline),
            Double(challenges) / seconds(baseline)
        )
    )
    print(
        String(
            format: "settled, paid out and badge counters set (%d jobs):            %6.2f s = %8.0f challenges/s",
            jobs,
            seconds(settling),
            Double(challenges) / seconds(settling)
        )
    )
    print(String(format: "ratio (settlement time / plain read time): %.1f", seconds(settling) / seconds(baseline)))
}

func boardSeed(_ url: String, participants: Int) async throws {
    let (store, running) = try await open(url)
    defer { running.cancel() }
    let now = Date()
    let people = try await people(participants, in: store, now: now)
    let made = try await store.transaction { tx in
        try await challenge(
            0,
            members: [people[0]],
            end: now.addingTimeInterval(3 * 86_400),
            stake: 0,
            visibility: .public,
            in: tx,
            now: now
        )
    }
    for first in stride(from: 1, to: participants, by: 1_000) {
        try await store.transaction { tx in
            for (offset, member) in people[first..<min(participants, first + 1_000)].enumerated() {
                try await tx.challenges.save(
                    ChallengeParticipant(challengeID: made.id, userID: member, state: .joined, updatedAt: now)
                )
                try await tx.boards.saveScore(
                    BoardKey.truncated(
                        value: Double((first + offset) * 37 % 42_000) / 1_000,
                        reachedAt: now.addingTimeInterval(-Double(offset)),
                        user: member
                    ),
                    on: made.board
                )
            }
            try await tx.challenges.adjust(made.id, participants: min(participants, first + 1_000) - first, escrow: 0)
        }
    }
    print(made.id.rawValue)
}

let arguments = CommandLine.arguments
switch arguments.dropFirst().first {
case "settle" where arguments.count > 2:
    try await settleBenchmark(
        arguments[2],
        challenges: arguments.count > 3 ? Int(arguments[3]) ?? 10_000 : 10_000,
        participants: arguments.count > 4 ? Int(arguments[4]) ?? 3 : 3,
        population: arguments.count > 5 ? Int(arguments[5]) : nil
    )
case "board" where arguments.count > 2:
    try await boardSeed(arguments[2], participants: arguments.count > 3 ? Int(arguments[3]) ?? 10_000 : 10_000)
default:
    print(
        "usage: ChallengeBenchmark settle <database URL> [challenges] [participants each] [people] | ChallengeBenchmark board <database URL> [participants]"
    )
    exit(2)
}
