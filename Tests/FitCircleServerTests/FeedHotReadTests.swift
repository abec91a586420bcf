import FitCircleAPI
import FitCircleCore
import FitCircleTesting
import Foundation
import HTTPTypes
import Testing

/// The friends' feed's first page is a hot read (`FeedRead`): written by hand and kept for its reader. The
/// generated path answers the same page when `limit=20` (the default) is sent, so each page below is read both
/// ways and compared byte for byte and value for value (`TestApp.hotReadDifferences`).
struct FeedHotReadTests {
    typealias Person = TestPerson

    static func compare(_ app: TestApp, as person: Person, _ note: String) async throws {
        try await app.runJobs()
        #expect(
            try await app.hotReadDifferences(
                "/api/feed",
                generic: "/api/feed?limit=20",
                as: person,
                Components.Schemas.FriendFeedPage.self
            ) == [],
            "\(note)"
        )
    }

    /// Every kind of workout (a route's thumbnail, a push-up series, calories), reactions of each kind with
    /// the reader's own, a photo shown to friends only, names with quotes, a backslash and an emoji, a full
    /// page (with its cursor) and a short one, and an empty feed.
    @Test(arguments: Backend.available)
    func aFeedPageWrittenByHandIsTheGeneratedAnswer(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "social") { app async throws in
            let (ana, bo, cy, dee) = (
                try await app.person(named: "Ana"), try await app.person(named: "Bo"),
                try await app.person(named: "Cy"),
                try await app.person(named: "Dee")
            )
            try await Self.compare(app, as: dee, "an empty feed")
            let bos = bo
            try await app.setVisibility(
                of: bos,
                name: #"Bo "the \ rock" / 🏃"#,
                ["photo": "friends"]
            )
            try await app.uploadPhoto(of: bos)
            try await app.befriend(ana, bo)
            try await app.befriend(ana, cy)
            try await app.recordWorkout(
                "ana-run",
                by: ana,
                minutesAgo: 30,
                route: "_p~iF~ps|U_ulLnnqC_mqNvxq`@"
            )
            try await Self.compare(app, as: ana, "one workout")
            let push = try await app.request(
                .post,
                "/api/activities",
                token: try await bo.token(app),
                json: [
                    "clientEventId": "bo-push", "type": "workout", "source": "app",
                    "occurredAt": iso8601(app.clock.now.addingTimeInterval(-600)),
                    "workout": ["type": "pushups", "durationSeconds": 60, "reps": 25, "calories": 12.5],
                ]
            )
            #expect(push.status == .created, "\(push.text)")
            let walk = try await app.recordWorkout(
                "cy-walk",
                by: cy,
                type: .walking,
                minutesAgo: 20,
                meters: 2_345.6
            )
            for (person, reaction) in [(ana, "🔥"), (ana, "👍"), (bo, "🔥"), (cy, "💪")] {
                let reacted = try await app.request(
                    .post,
                    "/api/activities/\(walk)/reactions",
                    token: try await person.token(app),
                    json: ["reaction": reaction]
                )
                #expect(reacted.status == .ok || person.id == bo.id, "\(reacted.text)")
            }
            try await Self.compare(app, as: ana, "three friends' workouts with reactions")
            try await Self.compare(app, as: bo, "a friend's photo and name")
            try await Self.compare(app, as: cy, "a reader's own reaction")
            for minute in 0..<25 {
                try await app.recordWorkout(
                    "cy-\(minute)",
                    by: cy,
                    type: minute % 2 == 0 ? .cycling : .strength,
                    minutesAgo: Double(minute) + 0.5,
                    meters: minute % 3 == 0 ? nil : 1_000.25 * Double(minute)
                )
            }
            try await Self.compare(app, as: ana, "a full page, with its cursor")
            try await Self.compare(app, as: cy, "a full page of one's own")
        }
    }

    /// A page kept for its reader is served again only while nothing on it has changed, on this node or
    /// another: after each change below the next read is the generated path's answer, and differs from the
    /// last one shown; the read after it is the kept one.
    @Test(arguments: Backend.available)
    func aKeptFeedPageIsServedAgainUntilAnythingOnItChanges(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "social") { app async throws in
            let (ana, bo, cy, dee) = (
                try await app.person(named: "Ana"), try await app.person(named: "Bo"),
                try await app.person(named: "Cy"),
                try await app.person(named: "Dee")
            )
            try await app.befriend(ana, bo)
            try await app.befriend(ana, cy)
            try await app.befriend(bo, cy)
            let run = try await app.recordWorkout("bo-run", by: bo, minutesAgo: 30)
            let hidden = try await app.recordWorkout(
                "bo-secret",
                by: bo,
                minutesAgo: 10,
                visibility: ._private
            )
            let walk = try await app.recordWorkout("cy-walk", by: cy, type: .walking, minutesAgo: 20)
            var shown = ""
            func changed(_ what: String) async throws {
                try await app.runJobs()
                #expect(
                    try await app.changedThenKeptDifferences(
                        "/api/feed",
                        generic: "/api/feed?limit=20",
                        as: ana,
                        Components.Schemas.FriendFeedPage.self,
                        shown: &shown
                    ) == [],
                    "\(what)"
                )
            }
            func react(_ person: Person, _ reaction: String, to id: String, _ method: HTTPRequest.Method = .post)
                async throws
            {
                let path =
                    method == .post ? "/api/activities/\(id)/reactions" : "/api/activities/\(id)/reactions/\(reaction)"
                let answer = try await app.request(
                    method,
                    path,
                    token: try await person.token(app),
                    json: method == .post ? ["reaction": reaction] : nil
                )
                #expect(answer.status == .ok || answer.status == .noContent, "\(answer.text)")
            }
            try await changed("the first read")
            try await app.recordWorkout("cy-ride", by: cy, type: .cycling, minutesAgo: 5)
            try await changed("a friend's new workout, once fanned out")
            try await react(bo, "🔥", to: walk)
            try await changed("a reaction on a friend's workout")
            try await react(ana, "💪", to: run)
            try await changed("the reader's own reaction")
            try await react(ana, "💪", to: run, .delete)
            try await changed("the reader's reaction taken back")
            var profile = TestApp.validProfile()
            profile["displayName"] = "Bo B."
            #expect(
                try await app.request(.put, "/api/user/profile", token: try await bo.token(app), json: profile).status
                    == .ok
            )
            try await changed("an author's new name")
            try await app.uploadPhoto(of: cy)
            try await changed("an author's photo")
            let shownToFriends = try await app.request(
                .put,
                "/api/activities/\(hidden)/visibility",
                token: try await bo.token(app),
                json: ["visibility": "friends"]
            )
            #expect(shownToFriends.status == .ok, "\(shownToFriends.text)")
            try await changed("a private workout shown to friends")
            #expect(
                try await app.request(
                    .put,
                    "/api/activities/\(walk)/visibility",
                    token: try await cy.token(app),
                    json: ["visibility": "private"]
                ).status == .ok
            )
            try await changed("a workout made private")
            let edit = try await app.request(
                .post,
                "/api/activities/edits",
                token: try await bo.token(app),
                json: [
                    "modifiedAt": iso8601(app.clock.now),
                    "activity": [
                        "clientEventId": "bo-run", "type": "workout", "source": "app",
                        "occurredAt": iso8601(app.clock.now.addingTimeInterval(-60)),
                        "workout": ["type": "running", "durationSeconds": 1_800, "distanceMeters": 6_000],
                    ],
                ]
            )
            #expect(edit.status == .ok, "\(edit.text)")
            try await changed("a workout edited to be the newest")
            #expect(
                try await app.request(.delete, "/api/activities/\(run)", token: try await bo.token(app)).status
                    == .noContent
            )
            try await changed("a workout deleted")
            // A reactor who deletes their account takes their reactions with them.
            try await app.befriend(dee, cy)
            let ride = try #require(try await app.friendFeed(of: dee).activityIDs.first)
            try await react(dee, "👍", to: ride)
            try await changed("a reaction from a friend's friend")
            #expect(try await app.request(.delete, "/api/user", token: try await dee.token(app)).status == .noContent)
            try await changed("the reactor's account deleted")
            // The friendship alone, through the store (an HTTP block or unfriending changes more than that).
            _ = try await app.store.transaction { tx in try await tx.friends.unfriend(User.ID(ana.id), User.ID(cy.id)) }
            try await changed("a friendship ended")
            #expect(
                try await app.request(
                    .post,
                    "/api/friends/blocks",
                    token: try await bo.token(app),
                    json: ["userId": ana.id]
                ).status == .noContent
            )
            try await changed("a block")
        }
    }
}
