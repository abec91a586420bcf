public import FitCircleCore
import FitCircleJobs
public import FitCircleStore
import Foundation

/// Spec 002 §4's challenge badges: their counters are the person's challenge record (kept at settlement)
/// and what they made and hosted; jobs queued by settlement (and by a join, for the host) set them on the
/// people's reward counters under their locks, where the catalog's badges unlock as any other. A runner
/// takes many such jobs together: one transaction, set-based reads and writes.
extension Challenges {
    public static let badges = "challenges.badges"

    struct BadgeSync: Codable, Sendable {
        var users: [User.ID]
    }

    /// Jobs setting `users`' challenge counters, 500 people each.
    func badgeJobs(for users: [User.ID], key: String, at now: Date) throws -> [JobRecord] {
        try stride(from: 0, to: users.count, by: 500).map { start in
            let part = Array(users[start..<min(start + 500, users.count)])
            return JobRecord(
                id: self.ids.make(JobRecord.self).rawValue,
                kind: Self.badges,
                payload: String(decoding: try JSONEncoder().encode(BadgeSync(users: part)), as: UTF8.self),
                dedupeKey: "\(Self.badges):\(key):\(start)",
                runAt: now,
                maxAttempts: 8
            )
        }
    }

    func registerBadgeJobs(in jobs: inout JobRegistry) throws(JobRegistry.Conflict) {
        try jobs.register(Self.badges, batchesOf: 8) { jobs in
            try await self.syncBadges(
                jobs.flatMap { job in try JSONDecoder().decode(BadgeSync.self, from: Data(job.payload.utf8)).users }
            )
        }
    }

    /// Everyone's counters now, and their badges, in one transaction under their locks (taken in id order).
    func syncBadges(_ users: [User.ID]) async throws {
        let now = self.clock.now()
        try await self.store.transaction { tx in
            let people = try await tx.users.locked(users)
            try await self.rewards.setCounters(
                try await Self.counters(of: Array(people.keys), in: tx),
                of: people,
                in: tx,
                now: now
            )
            try await self.scoring.restate(Set(people.keys), in: tx, now: now)  // a badge's XP counts on XP challenges
        }
    }

    /// People's challenge counters: the record's, and the social ones (made, hosted, the different people
    /// met in completed challenges and the most challenges with one of them: `ChallengeQueries.socialCounts`).
    static func counters(of users: [User.ID], in tx: Transaction) async throws -> [User.ID: [Badge.Counter: Int]] {
        let records = try await tx.challenges.records(of: users)
        let social = try await tx.challenges.socialCounts(of: users)
        return users.reduce(into: [:]) { all, user in
            var counters = records[user]?.counters ?? ChallengeRecord().counters
            let mine = social[user] ?? ChallengeQueries.SocialCounts()
            counters[.challengesCreated] = mine.created
            counters[.challengeParticipantsHosted] = mine.hosted
            counters[.opponents] = mine.opponents
            counters[.mostChallengesWithOnePerson] = mine.mostWithOne
            for counter in [
                Badge.Counter.comebackWins, .higherLevelWins, .distanceWins, .durationWins, .calorieWins, .xpWins,
                .workoutCountWins,
                .specificWorkoutWins, .lastPlaceWins, .photoFinishWins,
            ] where counters[counter] == nil {
                counters[counter] = 0
            }
            all[user] = counters
        }
    }
}
