import FitCircleClient
import FitCircleCore
import FitCircleEngine
import FitCircleJobs
import FitCircleServer
import FitCircleTesting
import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import Testing

/// Friends through the API (spec 004, R6): requests, answers, removal, blocks, and what each side hears.
struct FriendsTests {
    static func requests(_ app: TestApp, of person: TestPerson) async throws -> (incoming: [String], outgoing: [String])
    {
        let api = try await app.api(as: person)
        let incoming = try await api.listFriendRequests(query: .init(direction: .incoming)).ok.body.json
        let outgoing = try await api.listFriendRequests(query: .init(direction: .outgoing)).ok.body.json
        return (incoming.items.map(\.userId), outgoing.items.map(\.userId))
    }

    @Test(arguments: Backend.available)
    func r6_3to6_r10_1_aRequestIsPendingUntilAcceptedIntoAMutualFriendshipOrDeclinedIntoNothing(_ backend: Backend)
        async throws
    {
        try await withTestApp(backend, profile: "social") { app async throws in
            let (ana, bo, cy) = (
                try await app.person(named: "Ana"), try await app.person(named: "Bo"), try await app.person(named: "Cy")
            )
            let sent = try await app.friendAction("/api/friends/request", by: ana, to: bo)
            #expect(sent.status == .ok, "\(sent.text)")
            #expect(try sent.decoded(as: Components.Schemas.FriendRequestOutcome.self).status == .requested)
            // Asking again while it waits answers the same and notifies no one again.
            #expect(
                try await app.friendAction("/api/friends/request", by: ana, to: bo)
                    .decoded(as: Components.Schemas.FriendRequestOutcome.self).status == .requested
            )
            #expect(try await Self.requests(app, of: ana) == ([], [bo.id]))
            #expect(try await Self.requests(app, of: bo) == ([ana.id], []))
            #expect(try await app.inboxBodies(of: bo) == ["Ana wants to be your friend."])  // R10.1
            #expect(try await app.friendIDs(of: ana) == [])

            #expect(try await app.friendAction("/api/friends/accept", by: bo, to: ana).status == .noContent)
            #expect(try await app.friendIDs(of: ana) == [bo.id])
            #expect(try await app.friendIDs(of: bo) == [ana.id])
            #expect(try await Self.requests(app, of: bo) == ([], []))
            #expect(try await app.inboxBodies(of: ana) == ["Bo accepted your friend request."])
            // Friends already: a request says so, and accepting again (a retry) is done, and tells Ana nothing more.
            #expect(
                try await app.friendAction("/api/friends/request", by: bo, to: ana)
                    .decoded(as: Components.Schemas.FriendRequestOutcome.self).status == .friends
            )
            #expect(try await app.friendAction("/api/friends/accept", by: bo, to: ana).status == .noContent)
            #expect(try await app.inboxBodies(of: ana) == ["Bo accepted your friend request."])

            // Declined: the request is gone and Cy is told nothing.
            #expect(try await app.friendAction("/api/friends/request", by: cy, to: bo).status == .ok)
            #expect(try await app.friendAction("/api/friends/decline", by: bo, to: cy).status == .noContent)
            #expect(try await Self.requests(app, of: cy) == ([], []))
            #expect(try await app.friendAction("/api/friends/decline", by: bo, to: cy).status == .notFound)
            #expect(try await app.inboxBodies(of: cy) == [])

            // Requests both ways are a friendship at once.
            #expect(try await app.friendAction("/api/friends/request", by: cy, to: ana).status == .ok)
            let crossed = try await app.friendAction("/api/friends/request", by: ana, to: cy)
            #expect(try crossed.decoded(as: Components.Schemas.FriendRequestOutcome.self).status == .friends)
            #expect(try await app.friendIDs(of: cy) == [ana.id])
            #expect(try await app.friendIDs(of: ana) == [bo.id, cy.id])
        }
    }

    @Test(arguments: Backend.available)
    func r6_9_aFriendshipEndsForBothAndARequestCanBeWithdrawn(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let (ana, bo, cy) = (
                try await app.person(named: "Ana"), try await app.person(named: "Bo"), try await app.person(named: "Cy")
            )
            _ = try await app.friendAction("/api/friends/request", by: ana, to: bo)
            _ = try await app.friendAction("/api/friends/accept", by: bo, to: ana)
            #expect(
                try await app.request(.delete, "/api/friends/\(ana.id)", token: try await bo.token(app)).status
                    == .noContent
            )
            #expect(try await app.friendIDs(of: ana) == [])
            #expect(try await app.friendIDs(of: bo) == [])
            #expect(
                try await app.request(.delete, "/api/friends/\(ana.id)", token: try await bo.token(app)).status
                    == .notFound
            )

            _ = try await app.friendAction("/api/friends/request", by: ana, to: cy)
            #expect(
                try await app.request(.delete, "/api/friends/requests/\(cy.id)", token: try await ana.token(app)).status
                    == .noContent
            )
            #expect(try await Self.requests(app, of: cy) == ([], []))
            #expect(
                try await app.request(.delete, "/api/friends/requests/\(cy.id)", token: try await ana.token(app)).status
                    == .notFound
            )

            // Nobody befriends themself or an id that does not exist; a missing id names its field.
            #expect(try await app.friendAction("/api/friends/request", by: ana, to: ana).status == .forbidden)
            #expect(
                try await app.request(
                    .post,
                    "/api/friends/request",
                    token: try await ana.token(app),
                    json: ["userId": "nobody"]
                ).status == .notFound
            )
            // A huge id is not echoed back whole.
            let huge = try await app.request(
                .post,
                "/api/friends/request",
                token: try await ana.token(app),
                json: ["userId": String(repeating: "x", count: 100_000)]
            )
            #expect(huge.status == .notFound)
            #expect(huge.body.readableBytes < 400)
            let missing = try await app.request(
                .post,
                "/api/friends/request",
                token: try await ana.token(app),
                json: [:]
            )
            #expect(missing.status == .unprocessableContent)
            #expect((try missing.problem().fields.first) == "userId")
        }
    }

    @Test(arguments: Backend.available)
    func r6_7_theFriendListCarriesEachFriendsWorkoutsOfTheLastSevenDays(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let (ana, bo) = (try await app.person(named: "Ana"), try await app.person(named: "Bo"))
            _ = try await app.friendAction("/api/friends/request", by: ana, to: bo)
            _ = try await app.friendAction("/api/friends/accept", by: bo, to: ana)
            let start = app.clock.now
            for (id, daysAgo, meters) in [("old", 8.0, 9000.0), ("run", 3.0, 5000.0), ("walk", 1.0, 2500.0)] {
                let workout: [String: Any] = [
                    "clientEventId": id, "type": "workout",
                    "occurredAt": iso8601(start.addingTimeInterval(-daysAgo * 86_400)),
                    "source": "app",
                    "workout": [
                        "type": id == "walk" ? "walking" : "running", "durationSeconds": 1800, "distanceMeters": meters,
                    ],
                ]
                let recorded = try await app.request(
                    .post,
                    "/api/activities",
                    token: try await bo.token(app),
                    json: workout
                )
                #expect(recorded.status == .created, "\(recorded.text)")
            }
            let friend = try #require(try await app.api(as: ana).listFriends().ok.body.json.items.first)
            #expect(friend.displayName == "Bo")
            #expect(friend.recent.workouts == 2)
            #expect(friend.recent.distanceMeters == 7500)
            #expect(friend.recent.durationSeconds == 3600)
            #expect(friend.recent.lastWorkoutAt.map(iso8601) == iso8601(start.addingTimeInterval(-86_400)))
        }
    }

    @Test(arguments: Backend.available)
    func aBlockEndsTheFriendshipAndTheBlockedCannotFindRequestOrNotify(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "social") { app async throws in
            let (ana, cyra) = (try await app.person(named: "Ana"), try await app.person(named: "Cyra"))
            _ = try await app.friendAction("/api/friends/request", by: ana, to: cyra)
            _ = try await app.friendAction("/api/friends/accept", by: cyra, to: ana)
            #expect(try await app.friendAction("/api/friends/blocks", by: cyra, to: ana).status == .noContent)
            #expect(try await app.friendAction("/api/friends/blocks", by: cyra, to: ana).status == .noContent)
            #expect(try await app.friendIDs(of: ana) == [])
            let blocked = try await app.api(as: cyra).listBlockedUsers().ok.body.json
            #expect(blocked.items.map(\.userId) == [ana.id])

            // To Ana, Cyra no longer exists: not found by search, not requested, never notified.
            #expect(try await app.api(as: ana).searchUsers(query: .init(q: "cyr")).ok.body.json.items.isEmpty)
            #expect(try await app.friendAction("/api/friends/request", by: ana, to: cyra).status == .notFound)
            #expect(try await Self.requests(app, of: cyra) == ([], []))
            // Cyra may not request the one she blocked until she lifts the block.
            #expect(try await app.friendAction("/api/friends/request", by: cyra, to: ana).status == .forbidden)

            #expect(
                try await app.request(.delete, "/api/friends/blocks/\(ana.id)", token: try await cyra.token(app)).status
                    == .noContent
            )
            #expect(
                try await app.request(.delete, "/api/friends/blocks/\(ana.id)", token: try await cyra.token(app)).status
                    == .notFound
            )
            #expect(try await app.friendAction("/api/friends/request", by: ana, to: cyra).status == .ok)
            // The only notice Cyra has is the request after the block was lifted (the acceptance went to Ana).
            #expect(try await app.inboxBodies(of: cyra) == ["Ana wants to be your friend."])
        }
    }
}
