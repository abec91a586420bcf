import FitCircleCore
import FitCircleEngine
import FitCircleStore
import FitCircleTesting
import Foundation
import Logging
import Testing

/// Settlement and payouts run many challenges to a transaction (`Challenges.batch`): a node killed with
/// `kill -9` while it works through them, and started again, settles each challenge once and pays each pot
/// once, whole — nothing paid twice, nothing lost, the escrow's books balanced.
@Suite(.serialized)
struct SettlementCrashTests {
    static let challenges = 600
    static let people = 60
    static let stake = 10
    static let startingXP = 1_000

    @Test(arguments: Backend.available)
    func killDashNineWhileBatchesSettleAndPayLosesAndDoublesNothing(_ backend: Backend) async throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: ServerProcess.binary.path),
            "build the fitcircle product first"
        )
        let location = try await backend.makeLocation()
        defer { Task { await Backend.drop(location) } }
        let store = try await Store.open(location, deadlines: .tests, logger: Logger(label: "tests"))
        try await withRunning(store) {
            _ = try await store.migrate(now: Date())
            try await Self.seed(store, now: Date())
            // Killed once some challenges are settled and before all are, then once some pots are paid and
            // before all are: each time while the node works through its batches.
            var node = try await ServerProcess.start(on: location)
            var kills: [String] = []
            let phases: [(String, (Int, Int) -> Bool)] = [
                ("settling", { settled, _ in settled > 0 }),
                ("paying", { _, paid in paid > 0 }),
            ]
            for (phase, reached) in phases {
                let (settled, paid) = try await Self.progress(in: store, until: reached)
                node.kill()
                kills.append("\(phase): \(settled) settled, \(paid) paid")
                // The dead node's leases run out (in 120 s): at once here, as if the restart came that late.
                try await store.execute(
                    unsafeSQL:
                        "UPDATE jobs SET lease_expires_at = created_at WHERE status = 'pending' AND lease_owner IS NOT NULL"
                )
                node = try await node.restart()
            }
            let finished = try await Self.progress(in: store) { _, paid in paid == Self.challenges }
            node.kill()
            #expect(finished.settled == Self.challenges, "\(kills)")

            let (books, movements, people) = try await store.read { tx in
                (
                    try await tx.challenges.escrowBooks(),
                    try await tx.challenges.escrowMovements(),
                    try await Self.ledgers(in: tx)
                )
            }
            // Every pot paid out whole, and the ledger's stakes, payouts and refunds say the same.
            #expect(books.count == Self.challenges && books.allSatisfy { $0.escrow == 0 && $0.held == 0 })
            let moved = Dictionary(grouping: movements, by: \.challenge).mapValues { $0.reduce(0) { $0 + $1.amount } }
            #expect(moved.count == Self.challenges && moved.values.allSatisfy { $0 == 0 }, "\(kills)")
            // Each person's balance is their ledger's sum, and XP was neither made nor lost.
            #expect(people.allSatisfy { $0.balance == $0.ledger }, "\(kills)")
            #expect(people.reduce(0) { $0 + $1.balance } == Self.people * Self.startingXP, "\(kills)")
        }
    }

    /// Settled challenges and paid ones (each challenge's payout job done), polled until `reached` (or 120 s).
    static func progress(in store: Store, until reached: (Int, Int) -> Bool) async throws -> (
        settled: Int, paid: Int
    ) {
        for _ in 0..<6_000 {
            let payouts = try await store.read { tx in try await tx.jobs.all(kind: Challenges.payout) }
            let counts = (payouts.count, payouts.count { $0.status == .done })
            if reached(counts.0, counts.1) { return counts }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TestSetupError("the node did not get that far in 120 s")
    }

    /// Each seeded person's stored balance and the sum of their ledger.
    static func ledgers(in tx: Transaction) async throws -> [(balance: Int, ledger: Int)] {
        var found: [(balance: Int, ledger: Int)] = []
        for index in 0..<Self.people {
            let user = User.ID("crash-\(index)")
            found.append(
                (
                    try await tx.points.stats(of: user)?.totalPoints ?? 0,
                    try await tx.points.allLines(of: user).reduce(0) { $0 + $1.amount }
                )
            )
        }
        return found
    }

    /// `people` with XP, and `challenges` of three of them, each staked, on its board and due to settle.
    static func seed(_ store: Store, now: Date) async throws {
        let end = now.addingTimeInterval(-Challenge.settlementGrace - 60)
        let today = LocalDate(now, in: .gmt)
        let people = (0..<Self.people).map { User.ID("crash-\($0)") }
        try await store.transaction { tx in
            var joined: [User.ID: Int] = [:]
            for (index, person) in people.enumerated() {
                let email = "crash\(index)@example.com"
                try await tx.users.insert(
                    User(
                        id: person,
                        email: email,
                        profile: UserProfile(
                            displayName: "Person \(index)",
                            age: 30,
                            weightKg: 70,
                            timeZone: "Europe/Paris",
                            onboardedAt: now
                        ),
                        createdAt: now
                    ),
                    provider: "dev",
                    subject: email
                )
                try await tx.points.append(
                    [
                        PointsLine(
                            id: .init("seed-\(index)"),
                            date: today,
                            amount: Self.startingXP,
                            reason: .goalMet,
                            sourceKey: "seed",
                            createdAt: now
                        )
                    ],
                    of: person
                )
            }
            for index in 0..<Self.challenges {
                let members = Set((0..<3).map { people[(index * 7 + $0 * 11) % people.count] }).sorted()
                let challenge = Challenge(
                    id: Challenge.ID(String(format: "crash%05d", index)),
                    name: "Crash \(index)",
                    description: nil,
                    type: .distance,
                    rule: ChallengeType.distance.rule,
                    visibility: .private,
                    joinCode: String(format: "K%07d", index),
                    creatorID: members[0],
                    timeZone: "Europe/Paris",
                    startsAt: end.addingTimeInterval(-7 * 86_400),
                    endsAt: end,
                    stake: Self.stake,
                    minParticipants: 2,
                    maxParticipants: 10,
                    createdAt: now
                )
                try await tx.challenges.insert(challenge)
                for (offset, member) in members.enumerated() {
                    joined[member, default: 0] += 1
                    try await tx.points.append(
                        [
                            PointsLine(
                                id: .init("stake-\(index)-\(offset)"),
                                date: today,
                                amount: -Self.stake,
                                reason: .stake,
                                sourceKey: "stake:\(challenge.id):\(offset)",
                                detail: .init(challengeID: challenge.id.rawValue),
                                createdAt: now
                            )
                        ],
                        of: member
                    )
                    try await tx.challenges.save(
                        ChallengeParticipant(
                            challengeID: challenge.id,
                            userID: member,
                            state: .joined,
                            staked: Self.stake,
                            updatedAt: now
                        )
                    )
                    try await tx.boards.saveScore(
                        BoardKey.truncated(
                            value: Double((index + offset * 5) % 4) + 1,
                            reachedAt: end.addingTimeInterval(-Double(offset * 60 + 60)),
                            user: member
                        ),
                        on: challenge.board
                    )
                }
                try await tx.challenges.adjust(
                    challenge.id,
                    participants: members.count,
                    escrow: Self.stake * members.count
                )
                try await tx.enqueue(
                    [
                        JobRecord(
                            id: "settle-\(index)",
                            kind: Challenges.settle,
                            payload: "{\"challenge\":\"\(challenge.id)\"}",
                            dedupeKey: "\(Challenges.settle):\(challenge.id)",
                            runAt: end,
                            maxAttempts: 20
                        )
                    ],
                    at: now
                )
            }
            for person in people {
                let total = Self.startingXP - Self.stake * (joined[person] ?? 0)
                try await tx.points.save(
                    RewardStats(totalPoints: total, level: 1),
                    of: person,
                    at: now
                )
            }
        }
    }
}
