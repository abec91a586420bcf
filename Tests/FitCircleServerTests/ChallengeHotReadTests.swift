import FitCircleAPI
import FitCircleCore
import FitCircleTesting
import Foundation
import HTTPTypes
import Testing

/// A challenge board's first page is a hot read (`ChallengeBoardRead`): written by hand and kept for its
/// viewer. The generated path answers the same page when `limit=50` (the default) is sent, so each board
/// below is read both ways and compared byte for byte and value for value (`TestApp.hotReadDifferences`).
struct ChallengeHotReadTests {
    typealias Person = TestPerson

    static func compare(_ app: TestApp, _ id: String, as person: Person, _ note: String) async throws {
        let path = "/api/competitions/\(id)/leaderboard"
        #expect(
            try await app.hotReadDifferences(
                path,
                generic: "\(path)?limit=50",
                as: person,
                Components.Schemas.CompetitionLeaderboard.self
            ) == [],
            "\(note)"
        )
    }

    static func made(_ app: TestApp, by person: Person, _ body: [String: Any]) async throws -> String {
        let created = try await app.request(.post, "/api/competitions", token: try await person.token(app), json: body)
        #expect(created.status == .created, "\(created.text)")
        return try created.decoded(as: Components.Schemas.Competition.self).id
    }

    /// A staked race with an invitee, a description and a template-less rule; a rule with every filter; names
    /// hidden from non-friends, with quotes, a backslash and an emoji; a participant yet to count anything, a
    /// viewer who is not a participant, and the settled board with each row's result.
    @Test(arguments: Backend.available)
    func aChallengeBoardWrittenByHandIsTheGeneratedAnswerForEveryViewer(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let ana = try await app.person("ana@example.com", xp: 300)
            let ben = try await app.person("ben@example.com", xp: 300)
            let cy = try await app.person("cy@example.com", xp: 300)
            let dee = try await app.person("dee@example.com")
            try await app.setVisibility(
                of: cy,
                name: #"Cy "the \ rock" 🏃"#,
                ["boardName": "friends"]
            )
            try await app.befriend(ana, ben)
            try await app.befriend(ana, cy)
            let race = try await Self.made(
                app,
                by: ana,
                [
                    "name": "5K Face-Off", "description": "First to 5 km \"wins\"", "type": "distance",
                    "goal": "first_to", "target": 5, "durationDays": 7,
                    "stake": 100, "invitees": [ben.id], "visibility": "public",
                ]
            )
            let mornings = try await Self.made(
                app,
                by: ana,
                [
                    "name": "Weekend mornings", "type": "specific_workout", "goal": "most",
                    "workoutTypes": ["running", "cycling"], "startsAfter": "06:00",
                    "startsBefore": "09:30", "minDurationMinutes": 10, "maxDurationMinutes": 120.5,
                    "minDistanceKm": 1.5, "weekendsOnly": true,
                    "durationDays": 14, "visibility": "public",
                ]
            )
            for person in [ben, cy] {
                _ = try await app.joinChallenge(race, as: person).ok
            }
            for person in [ana, ben, cy, dee] {
                try await Self.compare(app, race, as: person, "nobody has run yet, as \(person.email)")
            }
            for person in [ana, dee] {
                try await Self.compare(app, mornings, as: person, "every filter, as \(person.email)")
            }
            app.clock.advance(by: 3 * 3_600)
            for (person, run) in [
                (ben, app.workout("b1", km: 3.25, minutes: 20, startedMinutesAgo: 120)),
                (cy, app.workout("c1", km: 2.5, minutes: 20, startedMinutesAgo: 60)),
            ] {
                _ = try await app.api(as: person).recordActivity(body: .json(run)).created
            }
            for person in [ana, ben, cy, dee] {
                try await Self.compare(app, race, as: person, "two have run, as \(person.email)")
            }
            try await app.settleChallenges(after: 7)
            for person in [ana, ben, cy, dee] {
                try await Self.compare(app, race, as: person, "settled, as \(person.email)")
            }
        }
    }

    /// A page kept for its viewer is served again only while nothing on it has changed: after a workout that
    /// counts, a rename, someone joining, a name hidden from non-friends, a second passing (the time
    /// remaining), a block and the end, the next read is the generated path's answer, and differs from
    /// the last one shown; the read after it is the kept one.
    @Test(arguments: Backend.available)
    func aKeptChallengePageIsServedAgainUntilAnythingOnItChanges(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let ana = try await app.person("ana@example.com")
            let ben = try await app.person("ben@example.com")
            let cy = try await app.person("cy@example.com")
            let race = try await Self.made(
                app,
                by: ana,
                ["name": "Most km", "type": "distance", "goal": "most", "durationDays": 7, "visibility": "public"]
            )
            _ = try await app.joinChallenge(race, as: ben).ok
            let path = "/api/competitions/\(race)/leaderboard"
            app.clock.advance(by: 3_600)
            _ = try await app.api(as: ana).recordActivity(
                body: .json(app.workout("a1", km: 2, minutes: 12, startedMinutesAgo: 30))
            ).created
            // The first reads load the board into this node's index; from then on its pages are kept.
            var loaded = false
            for _ in 0..<200 where !loaded {
                let kept = try await app.keptPages()
                _ = try await app.request(.get, path, token: try await ben.token(app))
                loaded = try await app.keptPages() > kept
                if !loaded { try await Task.sleep(for: .milliseconds(10)) }
            }
            #expect(loaded, "the board was never kept")
            var shown = ""
            func changed(_ what: String) async throws {
                #expect(
                    try await app.changedThenKeptDifferences(
                        path,
                        generic: "\(path)?limit=50",
                        as: ben,
                        Components.Schemas.CompetitionLeaderboard.self,
                        shown: &shown
                    ) == [],
                    "\(what)"
                )
            }
            try await changed("the first read")
            _ = try await app.api(as: ben).recordActivity(
                body: .json(app.workout("b1", km: 3, minutes: 20, startedMinutesAgo: 25))
            ).created
            try await changed("a workout that counts")
            var profile = TestApp.validProfile()
            profile["displayName"] = "Ana B."
            #expect(
                try await app.request(.put, "/api/user/profile", token: try await ana.token(app), json: profile).status
                    == .ok
            )
            try await changed("a rename")
            _ = try await app.joinChallenge(race, as: cy).ok
            try await changed("someone joining")
            try await app.setVisibility(
                of: ana,
                name: "Ana B.",
                ["boardName": "friends"]
            )
            try await changed("a name hidden from non-friends")
            app.clock.advance(by: 1)
            try await changed("a second passing")
            #expect(
                try await app.request(
                    .post,
                    "/api/friends/blocks",
                    token: try await cy.token(app),
                    json: ["userId": ben.id]
                )
                .status == .noContent
            )
            try await changed("a block")
            app.clock.advance(by: 7 * 86_400)
            try await changed("the end (settling is 2 hours later)")
        }
    }
}
