import FitCircleClient
import FitCircleTesting
import Foundation
import Testing

/// Spec 000, "Flow 2": a day in a step circle. Alex's 10K day is news for the circle ("Alex just submitted
/// 10K steps—can you beat that?", F5's social engagement push): once per member and day, to the others only,
/// and only for a day of 10,000 steps or more. The document's technical note pushes on every submission;
/// its example is a 10K day. Read as the example: a push for every claim would reach each mate once per
/// member a day, past the 3-a-day budget that protects every other type (smaller claims stay in the feed).
struct Spec000Flow2Tests {
    static let zone = "Europe/Paris"

    @Test(arguments: Backend.available)
    func
        flow2_aTenThousandStepDayIsPushedToCircleMatesOnce_smallerClaimsStayInTheFeedSoEveryClaimDoesNotSpendTheirBudget(
            _ backend: Backend
        ) async throws
    {
        try await withTestApp(backend) { app async throws in
            let world = World(app, zone: Self.zone)
            world.start(at: "2026-03-03", "09:00")
            let alex = try await Member.onboarded("alex@example.com", in: Self.zone, app: app)
            let ben = try await Member.onboarded("ben@example.com", in: Self.zone, app: app)
            _ = try await app.request(
                .put,
                "/api/user/profile",
                token: try await alex.token,
                json: ["displayName": "Alex", "age": 31, "weight": ["value": 70, "unit": "kg"], "timeZone": Self.zone]
            )
            let circle = try await app.request(
                .post,
                "/api/fitcircles",
                token: try await alex.token,
                json: ["name": "Work Warriors", "metric": "steps"]
            ).decoded(as: Components.Schemas.FitCircle.self)
            let id = circle.id
            let joined = try await app.request(
                .post,
                "/api/fitcircles/join",
                token: try await ben.token,
                json: ["code": try #require(circle.joinCode)]
            )
            #expect(joined.status == .ok, "\(joined.text)")

            func claim(_ member: Member, steps: Int, _ id: String, circle: String) async throws {
                try await member.sync(steps: steps, id)
                try await member.claim(circle)
            }
            try await world.run(until: "2026-03-03", "12:00")
            try await claim(ben, steps: 4_000, "ben-1", circle: id)  // not a big day: nobody is told
            try await world.run(until: "2026-03-03", "18:00")
            try await claim(alex, steps: 10_234, "alex-1", circle: id)
            try await world.run(until: "2026-03-03", "18:30")
            try await claim(alex, steps: 11_000, "alex-2", circle: id)  // the same day again: told once
            try await world.run(until: "2026-03-03", "19:00")

            let told = try await app.notifications("social_engagement", token: try await ben.token)
            #expect(told.count == 1, "\(told)")
            #expect(told.first?.body == "🏃 Alex just submitted 10,234 steps—can you beat that?")
            #expect(told.first?.status.rawValue == "sent")
            #expect(try await app.notifications("social_engagement", token: try await alex.token).isEmpty)
        }
    }
}
