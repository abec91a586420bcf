import FitCircleCore
import FitCircleJobs
import FitCircleStore
import Foundation
import Logging

extension DemoData {
    /// A challenge already played, so the challenge pages and the notifications show how one ends: Ana's
    /// "Demo run-off", 25 XP a head (where the profile gave them), began ten days ago with Ben; Ana ran 12 km in it and Ben 7, so Ana won
    /// Ben's stake ("You won the challenge against Ben!"). It is made and joined as of ten days ago (a
    /// challenge cannot be made in the past), played through the use cases, settled and paid; then the
    /// work that follows (the results' notifications) runs, and Ana opens her two newest notifications.
    static func settledChallenge(of users: [User.ID], engine: Engine, now: Date) async throws {
        let (ana, ben) = (users[0], users[1])
        let began = now.addingTimeInterval(-10 * 86_400)
        let challenges = engine.challenges
        let then = Challenges(
            store: challenges.store,
            profile: challenges.profile,
            ids: challenges.ids,
            clock: .fixed(began),
            events: challenges.events,
            analytics: challenges.analytics
        )
        // 25 XP a head where both have them (a profile that awards no points plays it for nothing).
        let balances = try await challenges.store.read { tx in
            [
                try await tx.points.stats(of: ana)?.totalPoints ?? 0,
                try await tx.points.stats(of: ben)?.totalPoints ?? 0,
            ]
        }
        let stake = min(25, balances.min() ?? 0)
        let input = ChallengeInput(
            name: "Demo run-off",
            description: "Who runs furthest in a week?",
            type: .distance,
            goal: .most,
            startsAt: began,
            durationDays: 7,
            stake: stake,
            invitees: [ben]
        )
        let challenge = try await then.create(input, by: ana).challenge
        _ = try await then.join(challenge.id, code: nil, by: ben)
        for (index, user) in [ana, ben].enumerated() {
            let workout = Workout(
                type: .running,
                durationSeconds: Double(3_600 - 1_200 * index),
                distanceMeters: Double(12_000 - 5_000 * index)
            )
            let run = ActivityInput(
                clientEventID: "demo-run-off",
                occurredAt: began.addingTimeInterval(2 * 86_400),
                timeZone: Self.accounts[index].timeZone,
                source: .app,
                payload: .workout(workout)
            )
            _ = try await engine.activities.recordBatch([run], for: user)
        }
        try await challenges.settle(challenge.id)
        try await challenges.payOut(challenge.id)

        let runner = JobRunner(
            store: challenges.store,
            handlers: engine.jobs.handlers,
            batches: engine.jobs.batches,
            clock: challenges.clock,
            logger: Logger(label: "fitcircle.demo")
        )
        while try await runner.runDue(limit: 50) > 0 {}
        for notification in try await engine.notifications.inbox(of: ana, after: nil, limit: 2).items {
            try await engine.notifications.mark(notification.id, .opened, by: ana)
        }
    }
}
