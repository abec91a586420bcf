public import FitCircleCore
import FitCircleJobs
public import FitCircleStore
import Foundation

/// Spec 002 §4's challenge badges: their counters are the person's challenge record (kept at settlement)
/// and what they made and hosted; a job per settlement (and per join, for the host) sets them on each
/// person's reward counters under that person's lock, where the catalog's badges unlock as any other.
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
        try jobs.register(Self.badges) { job in
            try await self.syncBadges(try JSONDecoder().decode(BadgeSync.self, from: Data(job.payload.utf8)).users)
        }
    }

    /// Each person in a transaction of their own: their lock, their counters now, their badges.
    func syncBadges(_ users: [User.ID]) async throws {
        for user in users {
            let now = self.clock.now()
            try await self.store.transaction { tx in
                guard let person = try await tx.users.locked(user) else { return }
                try await self.rewards.setCounters(
                    try await Self.counters(of: user, in: tx),
                    of: person,
                    in: tx,
                    now: now
                )
                try await self.scoring.restate([user], in: tx, now: now)  // a badge's XP counts on XP challenges
            }
        }
    }

    /// A person's challenge counters: the record's, and the social ones (made, hosted, the different people
    /// met in completed challenges and the most challenges with one of them: `ChallengeQueries.socialCounts`).
    static func counters(of user: User.ID, in tx: Transaction) async throws -> [Badge.Counter: Int] {
        var counters = try await tx.challenges.records(of: [user])[user]?.counters ?? ChallengeRecord().counters
        let social = try await tx.challenges.socialCounts(of: user)
        counters[.challengesCreated] = social.created
        counters[.challengeParticipantsHosted] = social.hosted
        counters[.opponents] = social.opponents
        counters[.mostChallengesWithOnePerson] = social.mostWithOne
        for counter in [
            Badge.Counter.comebackWins, .higherLevelWins, .distanceWins, .durationWins, .calorieWins, .xpWins,
            .workoutCountWins,
            .specificWorkoutWins, .lastPlaceWins, .photoFinishWins,
        ] where counters[counter] == nil {
            counters[counter] = 0
        }
        return counters
    }
}
