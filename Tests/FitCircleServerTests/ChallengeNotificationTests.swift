import FitCircleClient
import FitCircleCore
import FitCircleEngine
import FitCircleJobs
import FitCircleStore
import FitCircleTesting
import Foundation
import Logging
import Testing

/// Every challenge message of spec 002 §2 and spec 004 (R8.3, R10.3–R10.5, R16) raised as the clock
/// moves through one challenge's life, each to whom it concerns, in its words; and nothing of the
/// progress kind to someone who just opened the app.
struct ChallengeNotificationTests {
    static let paris = TimeZone(identifier: "Europe/Paris")!

    static func at(_ day: Int, _ hour: Int, _ minute: Int = 0) -> Date {
        LocalDate(year: 2026, month: 3, day: day)!.instant(at: LocalTime(hour: hour, minute: minute)!, in: Self.paris)!
    }

    static func told(_ app: TestApp, _ person: TestPerson, _ type: String) async throws -> [String] {
        try await app.store.read { tx in try await tx.notifications.list(of: User.ID(person.id), type: type, limit: 10)
        }
        .map(\.body)
    }

    static func workout(_ app: TestApp, _ person: TestPerson, _ id: String, km: Double) async throws {
        let minutes = max(5, km * 6)  // 10 km an hour
        let run = app.workout(id, km: km, minutes: minutes, startedMinutesAgo: minutes)
        _ = try await app.api(as: person).recordActivity(body: .json(run)).created
    }

    @Test(arguments: Backend.available)
    func spec002_spec004_everyChallengeMessageGoesOutAtItsMoment(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "famefit") { app async throws in
            app.clock.set(Self.at(2, 13))  // Monday 2 March 2026, 13:00 in Paris
            let ana = try await app.person("ana@example.com")
            let ben = try await app.person("ben@example.com")
            let cy = try await app.person("cy@example.com")
            let dee = try await app.person("dee@example.com")
            try await app.befriend(ana, ben)
            for (person, name) in [(ana, "Ana"), (ben, "Ben"), (cy, "Cy"), (dee, "Dee")] {
                var profile = TestApp.validProfile()
                profile["displayName"] = name
                #expect(
                    try await app.request(.put, "/api/user/profile", token: try await person.token(app), json: profile)
                        .status == .ok
                )
            }
            let created = try await app.request(
                .post,
                "/api/competitions",
                token: try await ana.token(app),
                json: [
                    "name": "Race to 10K", "type": "distance", "goal": "first_to", "target": 10, "durationDays": 3,
                    "visibility": "public",
                    "startsAt": iso8601(Self.at(4, 10)), "invitees": [ben.id],
                ]
            ).decoded(as: Components.Schemas.Competition.self)
            let id = created.id
            // A lonely one beside it: nobody else joins, and at its start it is called off.
            let lonely = try await app.request(
                .post,
                "/api/competitions",
                token: try await ana.token(app),
                json: [
                    "name": "Solo", "type": "workouts", "durationDays": 2,
                    "startsAt": iso8601(Self.at(3, 12)),
                ]
            )
            #expect(lonely.status == .created)
            try await app.passTime(until: Self.at(2, 14))
            #expect(
                try await Self.told(app, ben, "challenge_invitation") == [
                    "Ana challenged you to 'Race to 10K'. Join or decline."
                ]
            )
            for person in [ben, cy, dee] {
                _ = try await app.joinChallenge(id, as: person).ok
            }

            try await app.passTime(until: Self.at(3, 10, 15))
            for person in [ana, ben, cy, dee] {
                #expect(
                    try await Self.told(app, person, "challenge_starts_tomorrow") == [
                        "Challenge starts tomorrow! Get ready 💪"
                    ]
                )
            }
            try await app.passTime(until: Self.at(3, 12, 15))
            #expect(try await Self.told(app, ana, "challenge_expired") == ["'Solo' expired - better luck next time"])
            try await app.passTime(until: Self.at(4, 9, 15))
            #expect(
                try await Self.told(app, ben, "challenge_starts_soon") == ["Your challenge with Ana begins in 1 hour"]
            )
            #expect(try await Self.told(app, ana, "challenge_starts_soon").contains("Your challenge begins in 1 hour"))
            try await app.passTime(until: Self.at(4, 10, 15))
            #expect(try await Self.told(app, cy, "challenge_started") == ["'Race to 10K' has started. Good luck!"])

            // Ben leads with 6 km; Dee climbs from last to first with 8.5 km more and takes it from him.
            try await app.passTime(until: Self.at(4, 12))
            try await Self.workout(app, ben, "b1", km: 6)
            try await Self.workout(app, cy, "c1", km: 3)
            try await Self.workout(app, ana, "a1", km: 2)
            try await Self.workout(app, dee, "d1", km: 1)
            try await app.passTime(until: Self.at(4, 15))
            try await Self.workout(app, dee, "d2", km: 8.5)
            try await app.passTime(until: Self.at(4, 15, 15))
            #expect(
                try await Self.told(app, ben, "challenge_lead_taken") == ["Dee just took the lead in your challenge"]
            )
            #expect(
                try await Self.told(app, dee, "challenge_rank_change") == ["You moved up to #1 in 'Race to 10K'! 🚀"]
            )
            #expect(
                try await Self.told(app, dee, "challenge_near_goal") == ["You're 80% to your goal - one more workout!"]
            )

            // Thursday 08:00: each hears where they stand, in the tone of their place — but Ben, who opened
            // the app at 07:55, has seen it already.
            try await app.passTime(until: Self.at(5, 7, 55))
            let opened = Components.Schemas.ActivityInput(
                clientEventId: "open-thu",
                _type: .appOpen,
                occurredAt: app.clock.now
            )
            _ = try await app.api(as: ben).recordActivity(body: .json(opened)).created
            try await app.passTime(until: Self.at(5, 8, 15), step: 300)
            #expect(
                try await Self.told(app, dee, "challenge_progress") == [
                    "2 days left and you're in the lead. Keep it up! 🏆"
                ]
            )
            #expect(
                try await Self.told(app, cy, "challenge_progress") == [
                    "2 days left in your challenge - you're in #3 place!"
                ]
            )
            #expect(
                try await Self.told(app, ana, "challenge_progress") == [
                    "You're falling behind! Complete a workout to stay competitive"
                ]
            )
            let benProgress = try await app.store.read { tx in
                try await tx.notifications.list(of: User.ID(ben.id), type: "challenge_progress", limit: 10)
            }
            #expect(benProgress.allSatisfy { $0.status == .dropped } && benProgress.count == 1, "\(benProgress)")

            // The last day, then Dee reaches 10 km first and wins; the others hear their place.
            try await app.passTime(until: Self.at(6, 10, 15))
            #expect(
                try await Self.told(app, ana, "challenge_last_day") == ["Last day of your challenge - make it count!"]
            )
            try await Self.workout(app, dee, "d3", km: 0.5)
            // Spec 002 §2's scheduler: "1 hour before end".
            try await app.passTime(until: Self.at(7, 8, 45))
            #expect(try await Self.told(app, ana, "challenge_ends_soon").isEmpty)
            try await app.passTime(until: Self.at(7, 9, 15))
            #expect(
                try await Self.told(app, ana, "challenge_ends_soon") == [
                    "1 hour left in your challenge - one more push!"
                ]
            )
            try await app.passTime(until: Self.at(7, 12, 30))
            #expect(try await Self.told(app, dee, "challenge_won") == ["You won 'Race to 10K'! 🎉"])
            #expect(
                try await Self.told(app, ben, "challenge_complete") == [
                    "Challenge complete! You finished #2 of 4 in 'Race to 10K'."
                ]
            )
            #expect(
                try await Self.told(app, ana, "challenge_complete") == [
                    "Challenge complete! You finished #4 of 4 in 'Race to 10K'."
                ]
            )
        }
    }

    /// Spec 002 §2, post-challenge: "You won the challenge against @username!" — in a challenge of two,
    /// the winner is told whom they beat, named as the board names them (a private name is "A member").
    @Test(arguments: Backend.available)
    func spec002_theWinnerOfADuelIsToldWhomTheyBeat(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "famefit") { app async throws in
            app.clock.set(Self.at(2, 13))
            let ana = try await app.person("ana@example.com", xp: 300)
            let ben = try await app.person("ben@example.com", xp: 300)
            try await app.befriend(ana, ben)
            for (person, name) in [(ana, "Ana"), (ben, "Ben")] {
                var profile = TestApp.validProfile()
                profile["displayName"] = name
                #expect(
                    try await app.request(.put, "/api/user/profile", token: try await person.token(app), json: profile)
                        .status == .ok
                )
            }
            let created = try await app.request(
                .post,
                "/api/competitions",
                token: try await ana.token(app),
                json: [
                    "name": "Duel", "type": "distance", "durationDays": 1, "stake": 50, "invitees": [ben.id],
                ]
            ).decoded(as: Components.Schemas.Competition.self)
            let id = created.id
            _ = try await app.joinChallenge(id, as: ben).ok
            try await app.passTime(until: Self.at(2, 15))
            try await Self.workout(app, ana, "a1", km: 5)
            try await Self.workout(app, ben, "b1", km: 3)
            try await app.passTime(until: Self.at(3, 15, 30))
            #expect(try await Self.told(app, ana, "challenge_won") == ["You won the challenge against Ben! +50 XP 🎉"])
            #expect(
                try await Self.told(app, ben, "challenge_complete") == [
                    "Challenge complete! You finished #2 of 2 in 'Duel'."
                ]
            )
        }
    }
}
