import FitCircleStore
import FitCircleTesting
import Foundation
import Testing

/// Spec 000, "Flow 2: Returning User Daily Loop": the morning's "Good morning! Your daily goals are ready."
/// and the evening's "You're at 7,200 steps—only 1,300 to go!" (sent past half of the day's step goal and
/// short of it; someone far off or done hears nothing).
struct Spec000Flow2DayTests {
    static let zone = "Europe/Paris"

    @Test(arguments: Backend.available)
    func flow2_morningGoalsReadyAndEveningStepsToGo(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let world = World(app, zone: Self.zone)
            world.start(at: "2026-03-02", "05:00")
            var members: [Member] = []
            for email in ["near@example.com", "far@example.com", "done@example.com"] {
                let token = try await app.devSignIn(email, timeZone: Self.zone).accessToken
                var profile = TestApp.validProfile(timeZone: Self.zone)
                profile["activityBaseline"] = "moderate"  // 7,000 steps
                _ = try await app.request(.put, "/api/user/profile", token: token, json: profile)
                members.append(Member(app: app, email: email))
                // Returning users: their accounts are a month old (a first week's copy is another flow's).
                let id = try #require(try await app.store.read { tx in try await tx.users.find(withEmail: email) }?.id)
                try await app.store.transaction { tx in
                    try await tx.users.backdate(id, createdAt: app.clock.now.addingTimeInterval(-30 * 86_400))
                }
            }
            try await world.run(until: "2026-03-02", "08:15")
            for member in members {
                let morning = try await app.notifications("daily_goals_ready", token: try await member.token)
                #expect(
                    morning.first?.body
                        == "☀️ Good morning! Your daily goals are ready: 7,000 steps and a check-in.",
                    "\(member.email)"
                )
            }
            for (member, steps) in zip(members, [5_700, 1_000, 7_400]) {
                try await member.sync(steps: steps, "s-\(member.email)")
            }
            try await world.run(until: "2026-03-02", "18:15")
            let near = try await app.notifications("steps_to_go", token: try await members[0].token)
            #expect(near.map { $0.body } == ["🚶 You're at 5,700 steps—only 1,300 to go!"])
            #expect(try await app.notifications("steps_to_go", token: try await members[1].token).isEmpty)
            #expect(
                try await app.notifications("steps_to_go", token: try await members[2].token).allSatisfy {
                    $0.status.rawValue == "dropped"
                }
            )
        }
    }
}
