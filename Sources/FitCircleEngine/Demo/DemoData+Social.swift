import FitCircleCore
import FitCircleStore
import Foundation

extension DemoData {
    /// Friends and a challenge, so the friends' pages and the challenge pages have something to show: Ana and
    /// Ben are friends, as are Ben and Chloé; Chloé's request to Ana waits for Ana's answer; Ben cheers Ana's
    /// latest run with 🔥. Ana's "Demo 10K week" began a few minutes ago with Ben in it and Chloé invited,
    /// and a run of each of the two is on its board.
    static func social(of users: [User.ID], engine: Engine, now: Date) async throws {
        let (ana, ben, chloe) = (users[0], users[1], users[2])
        _ = try await engine.friends.request(ben, by: ana)
        try await engine.friends.accept(ana, by: ben)
        _ = try await engine.friends.request(chloe, by: ben)
        try await engine.friends.accept(ben, by: chloe)
        _ = try await engine.friends.request(ana, by: chloe)
        let runs = try await engine.friends.feed(of: ben, type: .running, before: nil, limit: 20)
        if let anas = runs.first(where: { $0.activity.event.userID == ana }) {
            _ = try await engine.friends.react("🔥", to: anas.activity.event.id, by: ben)
        }

        let input = ChallengeInput(
            name: "Demo 10K week",
            description: "Who runs furthest in seven days?",
            type: .distance,
            goal: .most,
            startsAt: now.addingTimeInterval(-240),
            durationDays: 7,
            stake: 0,
            invitees: [ben, chloe]
        )
        let challenge = try await engine.challenges.create(input, by: ana).challenge
        _ = try await engine.challenges.join(challenge.id, code: nil, by: ben)
        for (index, user) in [ana, ben].enumerated() {
            let workout = Workout(
                type: .running,
                durationSeconds: Double(1_800 + 300 * index),
                distanceMeters: Double(6_000 - 1_500 * index)
            )
            _ = try await engine.activities.recordBatch(
                [
                    ActivityInput(
                        clientEventID: "demo-challenge-run",
                        occurredAt: now.addingTimeInterval(-60),
                        timeZone: Self.accounts[index].timeZone,
                        source: .app,
                        payload: .workout(workout)
                    )
                ],
                for: user
            )
        }
    }
}
