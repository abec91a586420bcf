import FitCircleClient
import FitCircleCore
import FitCircleEngine
import FitCircleStore
import FitCircleTesting
import Foundation
import Testing

/// Data submission (spec 000, Feature 5) through the API: claims, replays, updates, the window, who has
/// submitted, what is pending, and the 20:00 reminder.
struct SubmissionTests {
    @Test(arguments: Backend.available)
    func aDayIsClaimedOnceUpdatedByALaterSyncAndLockedAfterTheGrace(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            // Monday 2 March 2026, 09:00 UTC (10:00 in Paris)
            app.clock.set(Date(timeIntervalSince1970: 1_772_442_000))
            let ana = try await app.person("ana@example.com")
            let bo = try await app.person("bo@example.com", timeZone: "Asia/Tokyo")
            let circle = try await app.createCircle(
                by: ana,
                ["name": "Walkers", "metric": "steps", "privacy": "public"]
            )
            let id = circle.id
            app.clock.advance(by: 60)
            #expect(
                try await app.request(
                    .post,
                    "/api/fitcircles/join",
                    token: try await bo.token(app),
                    json: ["code": (circle.joinCode ?? "")]
                ).status == .ok
            )

            try await app.syncSteps(6_000, as: ana, id: "sync-1")
            let first = try await app.request(.post, "/api/fitcircles/\(id)/submit", token: try await ana.token(app))
            #expect(first.status == .created, "\(first.text)")
            #expect(try first.decoded(as: Components.Schemas.CircleSubmission.self).steps == 6_000)
            let again = try await app.request(.post, "/api/fitcircles/\(id)/submit", token: try await ana.token(app))
            #expect(again.status == .ok)
            #expect(try again.decoded(as: Components.Schemas.CircleSubmission.self).replayed)
            app.clock.advance(by: 2 * 3_600)
            try await app.syncSteps(8_500, as: ana, id: "sync-2")
            let updated = try await app.api(as: ana).submitToFitCircle(path: .init(id: id)).ok.body.json
            #expect(updated.steps == 8_500 && !updated.replayed)
            let claims = try await app.store.read { tx in
                try await tx.circles.submissions(to: FitCircle.ID(id), on: LocalDate(year: 2026, month: 3, day: 2)!)
            }
            #expect(claims.map(\.steps) == [8_500])

            // Who has submitted: Ana two hours ago (her first claim), Bo not yet; Bo's pending list names the circle.
            let today = try await app.request(
                .get,
                "/api/fitcircles/\(id)/submissions/today",
                token: try await bo.token(app)
            ).decoded(as: Components.Schemas.SubmissionsToday.self)
            #expect(today.date == "2026-03-02")
            #expect(today.items.map(\.submitted) == [true, false])
            #expect(today.items.first?.ago == "2 hours ago")
            let pending = try await app.api(as: bo).getPendingSubmissions().ok.body.json
            #expect(pending.items.map(\.circleId) == [id])
            let all = try await app.api(as: bo).submitToAllFitCircles().ok.body.json
            #expect(all.items.count == 1)
            #expect(try await app.api(as: bo).getPendingSubmissions().ok.body.json.items.isEmpty)

            // The window: Monday can be claimed until 00:30 on Tuesday in Paris, then it is locked.
            app.clock.set(Date(timeIntervalSince1970: 1_772_493_600))  // Monday 23:20 UTC = Tuesday 00:20 in Paris
            let late = try await app.request(
                .post,
                "/api/fitcircles/\(id)/submit?date=2026-03-02",
                token: try await ana.token(app)
            )
            #expect(late.status == .ok, "\(late.text)")
            app.clock.advance(by: 11 * 60)
            let locked = try await app.request(
                .post,
                "/api/fitcircles/\(id)/submit?date=2026-03-02",
                token: try await ana.token(app)
            )
            #expect(locked.status == .conflict)
            #expect(locked.text.contains("locked"))
            let future = try await app.request(
                .post,
                "/api/fitcircles/\(id)/submit?date=2026-03-04",
                token: try await ana.token(app)
            )
            #expect(future.status == .unprocessableContent)
            #expect(future.text.contains("\"date\""))
        }
    }

    /// Spec 000: "Notification at 8 PM if data not yet submitted".
    @Test(arguments: Backend.available)
    func membersWhoHaveNotSubmittedAreRemindedAt2000(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            app.clock.set(Date(timeIntervalSince1970: 1_772_409_600))  // Monday 2 March 2026, 00:00 UTC
            let ana = try await app.person("ana@example.com")
            let bo = try await app.person("bo@example.com")
            let circle = try await app.createCircle(
                by: ana,
                ["name": "Walkers", "metric": "steps", "privacy": "public"]
            )
            #expect(
                try await app.request(
                    .post,
                    "/api/fitcircles/join",
                    token: try await bo.token(app),
                    json: ["code": (circle.joinCode ?? "")]
                ).status == .ok
            )
            try await app.syncSteps(4_200, as: bo, id: "sync-bo")
            #expect(
                try await app.request(.post, "/api/user/submissions", token: try await ana.token(app)).status == .ok
            )
            try await app.passTime(hours: 24)
            for (person, expected) in [
                (ana, [String]()), (bo, ["🏃 Submit today's 4,200 steps to your FitCircles before midnight!"]),
            ] {
                let sent = try await app.store.read { tx in
                    try await tx.notifications.list(of: User.ID(person.id), type: "data_submission", limit: 5)
                }
                #expect(sent.filter { $0.status == .sent }.map(\.body) == expected, "\(person.email)")
            }
        }
    }

    /// Spec 000, Feature 2: the team's week — claimed steps per day, the top contributors, the caller's part.
    @Test(arguments: Backend.available)
    func theTeamWeekAddsUpWhatMembersClaimed(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            app.clock.set(Date(timeIntervalSince1970: 1_772_442_000))  // Monday 2 March 2026, 10:00 in Paris
            let ana = try await app.person("ana@example.com")
            let bo = try await app.person("bo@example.com")
            let cy = try await app.person("cy@example.com")
            let circle = try await app.createCircle(
                by: ana,
                ["name": "Walkers", "metric": "steps", "privacy": "public"]
            )
            let id = circle.id
            app.clock.advance(by: 60)
            #expect(
                try await app.request(
                    .post,
                    "/api/fitcircles/join",
                    token: try await bo.token(app),
                    json: ["code": (circle.joinCode ?? "")]
                ).status == .ok
            )
            try await app.syncSteps(8_500, as: ana, id: "ana-mon")
            try await app.syncSteps(9_000, as: bo, id: "bo-mon")
            try await app.syncSteps(30_000, as: cy, id: "cy-mon")  // not a member: never counts
            for person in [ana, bo] {
                #expect(
                    try await app.request(.post, "/api/user/submissions", token: try await person.token(app)).status
                        == .ok
                )
            }
            app.clock.advance(by: 86_400)
            try await app.syncSteps(3_000, as: ana, id: "ana-tue")
            #expect(
                try await app.request(.post, "/api/fitcircles/\(id)/submit", token: try await ana.token(app)).status
                    == .created
            )
            try await app.syncSteps(2_000, as: bo, id: "bo-tue")  // synced, never claimed

            let weeks = try await app.api(as: bo).getTeamWeeks().ok.body.json.items
            let week = try #require(weeks.first)
            #expect(week.weekStart == "2026-03-02")
            #expect(week.days.map(\.steps) == [17_500, 3_000, 0, 0, 0, 0, 0])
            #expect(week.totalSteps == 20_500 && week.members == 2 && week.contributors == 2)
            #expect(week.top.map(\.userId) == [ana.id, bo.id])
            #expect(week.yourSteps == 9_000)
            let outsider = try await app.request(
                .get,
                "/api/goals/weekly/team?circleId=\(id)",
                token: try await cy.token(app)
            )
            #expect(outsider.status == .forbidden)
        }
    }
}
