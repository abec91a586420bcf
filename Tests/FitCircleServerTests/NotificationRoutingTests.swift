import FitCircleTesting
import Foundation
import Testing

/// A notification an app can route (issue 46, review item 6 and I44): ids of what it is about beside its
/// text, and every deep link read by an operation — the invitation a `circle_invitation` opens, the workout
/// a `friend_activity` opens.
struct NotificationRoutingTests {
    @Test(arguments: Backend.available)
    func aCircleInvitationCanBeListedReadAcceptedOrDeclinedByItsInviteeAlone(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let (ana, bo, cy) = (
                try await app.person("ana@example.com"), try await app.person("bo@example.com"),
                try await app.person("cy@example.com")
            )
            let owner = try await ana.token(app)
            var circles: [String] = []
            for name in ["Walkers", "Runners", "Swimmers"] {
                app.clock.advance(by: 60)
                let created = try await app.request(
                    .post,
                    "/api/fitcircles",
                    token: owner,
                    json: ["name": name, "metric": "steps"]
                )
                circles.append(try #require(try created.jsonObject()["id"] as? String, "\(created.text)"))
                let invited = try await app.request(
                    .post,
                    "/api/fitcircles/\(circles.last ?? "")/invite",
                    token: owner,
                    json: ["userId": bo.id]
                )
                #expect(invited.status == .created, "\(invited.text)")
            }
            let token = try await bo.token(app)
            try await app.runJobs()

            // The notification carries the ids of what it is about; its link is read by an operation.
            let inbox = try await app.request(.get, "/api/notifications/inbox", token: token)
            let items = try #require(try inbox.jsonObject()["items"] as? [[String: Any]], "\(inbox.text)")
            // (Decided by one run of the jobs, the three share an instant: found by their circle.)
            let newest = try #require(
                items.first { ($0["about"] as? [String: Any])?["circleId"] as? String == circles[2] },
                "\(inbox.text)"
            )
            #expect(newest["type"] as? String == "circle_invitation")
            let about = try #require(newest["about"] as? [String: Any], "\(inbox.text)")
            #expect(about["actorId"] as? String == ana.id, "\(inbox.text)")
            let invitation = try #require(about["invitationId"] as? String)
            #expect(newest["deepLink"] as? String == "fitcircle://invitations/\(invitation)")

            // Listed newest first, a page at a time, each with its circle (private: no join code).
            let first = try await app.request(.get, "/api/user/invitations?limit=2", token: token)
            let page = try first.jsonObject()
            let listed = try #require(page["items"] as? [[String: Any]], "\(first.text)")
            #expect(
                listed.compactMap { ($0["circle"] as? [String: Any])?["name"] as? String } == ["Swimmers", "Runners"]
            )
            #expect((listed.first?["circle"] as? [String: Any])?["joinCode"] == nil)
            let cursor = try #require(page["nextCursor"] as? String, "\(first.text)")
            let second = try await app.request(.get, "/api/user/invitations?limit=2&cursor=\(cursor)", token: token)
            let rest = try #require(try second.jsonObject()["items"] as? [[String: Any]], "\(second.text)")
            #expect(rest.compactMap { $0["invitedBy"] as? String } == [ana.id])
            #expect(try second.jsonObject()["nextCursor"] == nil)

            // Read by its invitee alone: anyone else is told it does not exist.
            let read = try await app.request(.get, "/api/user/invitations/\(invitation)", token: token)
            #expect(read.status == .ok && read.text.contains("Swimmers"), "\(read.text)")
            let stranger = try await app.request(
                .get,
                "/api/user/invitations/\(invitation)",
                token: try await cy.token(app)
            )
            #expect(stranger.status == .notFound)
            #expect(
                try await app.request(.delete, "/api/user/invitations/\(invitation)", token: try await cy.token(app))
                    .status == .notFound
            )

            // Accepted by joining with it; declined, twice, is the same; neither is pending any more.
            let joined = try await app.request(
                .post,
                "/api/fitcircles/join",
                token: token,
                json: ["invitationId": invitation]
            )
            #expect(joined.status == .ok, "\(joined.text)")
            let declined = try #require(listed.last?["id"] as? String)
            #expect(
                try await app.request(.delete, "/api/user/invitations/\(declined)", token: token).status == .noContent
            )
            #expect(
                try await app.request(.delete, "/api/user/invitations/\(declined)", token: token).status == .noContent
            )
            #expect(try await app.request(.get, "/api/user/invitations/\(declined)", token: token).status == .notFound)
            let left = try await app.request(.get, "/api/user/invitations", token: token)
            #expect(try (left.jsonObject()["items"] as? [[String: Any]])?.count == 1, "\(left.text)")
            let managers = try await app.request(.get, "/api/fitcircles/\(circles[1])/invitations", token: owner)
            #expect(try (managers.jsonObject()["items"] as? [[String: Any]])?.isEmpty == true, "\(managers.text)")
            // Someone else's cursor names nothing of this list.
            let foreign = try await app.request(
                .get,
                "/api/user/invitations?cursor=\(cursor)",
                token: try await cy.token(app)
            )
            #expect(try foreign.problem().fields == ["cursor"], "\(foreign.text)")
        }
    }

    @Test(arguments: Backend.available)
    func aWorkoutOpensAsTheFeedShowsItToFriendsAndToNobodyElse(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let (ana, bo, cy) = (
                try await app.person("ana@example.com"), try await app.person("bo@example.com"),
                try await app.person("cy@example.com")
            )
            try await app.befriend(ana, bo)
            var ids: [String] = []
            for (key, visibility) in [("shared", "friends"), ("hidden", "private")] {
                let recorded = try await app.request(
                    .post,
                    "/api/activities",
                    token: try await ana.token(app),
                    json: [
                        "clientEventId": key, "type": "workout", "occurredAt": Self.stamp(app.clock.now),
                        "visibility": visibility,
                        "workout": ["type": "running", "durationSeconds": 1_800, "distanceMeters": 5_000],
                    ] as [String: Any]
                )
                ids.append(try #require(try recorded.jsonObject()["id"] as? String, "\(recorded.text)"))
            }
            try await app.runJobs()
            let item = try await app.request(.get, "/api/feed/items/\(ids[0])", token: try await bo.token(app))
            #expect(item.status == .ok, "\(item.text)")
            #expect(try item.jsonObject()["distanceMeters"] as? Double == 5_000 && item.text.contains(ana.id))
            #expect(
                try await app.request(.get, "/api/feed/items/\(ids[0])", token: try await ana.token(app)).status == .ok
            )
            #expect(
                try await app.request(.get, "/api/feed/items/\(ids[0])", token: try await cy.token(app)).status
                    == .notFound
            )
            #expect(
                try await app.request(.get, "/api/feed/items/\(ids[1])", token: try await bo.token(app)).status
                    == .notFound
            )
            // The friend's page lists it as the feed would, not as it was recorded (review I45).
            let page = try await app.request(.get, "/api/users/\(ana.id)", token: try await bo.token(app))
            #expect(page.text.contains(ids[0]) && !page.text.contains(ids[1]), "\(page.text)")
            #expect(!page.text.contains("clientEventId") && !page.text.contains("shared"), "\(page.text)")
        }
    }

    static func stamp(_ date: Date) -> String { date.formatted(.iso8601) }
}
