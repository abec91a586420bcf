import FitCircleClient
import FitCircleCore
import FitCircleEngine
import FitCircleJobs
import FitCircleStore
import FitCircleTesting
import Foundation
import HTTPTypes
import Logging
import Testing

/// Circles and their members through the API: create, see, invite, join, leave, remove, roles, archive.
struct CirclesTests {
    @Test(arguments: Backend.available)
    func aCircleIsCreatedWithItsDefaultsAndBadInputNamesEachField(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let ana = try await app.person("ana@example.com", timeZone: "Asia/Tokyo")
            let token = try await ana.token(app)
            let refused = try await app.request(
                .post,
                "/api/fitcircles",
                token: token,
                json: [
                    "name": "  ", "metric": "steps", "timeZone": "Mars/Olympus", "startDate": "2026-03-10",
                    "endDate": "2026-03-01", "memberLimit": 1,
                ]
            )
            #expect(refused.status == .unprocessableContent)
            for field in ["name", "timeZone", "endDate", "memberLimit"] {
                #expect(refused.text.contains("\"\(field)\""), "\(field): \(refused.text)")
            }
            #expect(try await app.api(token).listFitCircles().ok.body.json.items.isEmpty)

            let circle = try await app.createCircle(by: ana, ["name": " Morning Walkers ", "metric": "steps"])
            #expect(circle.name == "Morning Walkers")
            #expect(circle.timeZone == "Asia/Tokyo")
            #expect(circle.privacy == ._private)
            #expect(circle.memberLimit == 100)
            #expect(circle.memberCount == 1)
            #expect(circle.role == .owner)
            #expect(circle.startDate == LocalDate(app.clock.now, in: TimeZone(identifier: "Asia/Tokyo")!).iso)
            #expect(circle.joinCode?.count == 8)
            let mine = try await app.api(token).listFitCircles().ok.body.json.items
            #expect(mine.map(\.id) == [circle.id])
        }
    }

    /// A private circle is invisible to outsiders; an invitation makes it visible and lets its holder in,
    /// once; the invited account hears of it.
    @Test(arguments: Backend.available)
    func aPrivateCircleIsJoinedByInvitationAndItsCodeWhileRoomLasts(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let (ana, bo, cy) = (
                try await app.person("ana@example.com"), try await app.person("bo@example.com"),
                try await app.person("cy@example.com")
            )
            let circle = try await app.createCircle(by: ana, ["name": "Trio", "metric": "steps", "memberLimit": 2])
            let id = circle.id
            #expect(
                try await app.request(.get, "/api/fitcircles/\(id)", token: try await bo.token(app)).status == .notFound
            )

            let invited = try await app.request(
                .post,
                "/api/fitcircles/\(id)/invite",
                token: try await ana.token(app),
                json: ["email": "BO@example.com"]
            )
            #expect(invited.status == .created, "\(invited.text)")
            let invitation = try invited.decoded(as: Components.Schemas.CircleInvitation.self)
            // never tells whether the address has an account
            #expect(invitation.userId == nil && invitation.email == "bo@example.com")
            let again = try await app.request(
                .post,
                "/api/fitcircles/\(id)/invite",
                token: try await ana.token(app),
                json: ["userId": bo.id]
            )
            #expect(try again.decoded(as: Components.Schemas.CircleInvitation.self).id == invitation.id)
            // Bo is invited, so he may know the circle exists: 403, not 404.
            #expect(
                try await app.request(
                    .post,
                    "/api/fitcircles/\(id)/invite",
                    token: try await bo.token(app),
                    json: ["userId": cy.id]
                ).status == .forbidden
            )

            let seen = try await app.api(as: bo).getFitCircle(path: .init(id: id)).ok.body.json
            #expect(seen.role == nil && seen.joinCode == nil)
            try await app.runJobs()
            let bodies = try await app.api(as: bo).getNotificationInbox().ok.body.json.items.map(\.body)
            #expect(bodies == ["Ana invited you to join 'Trio' on FitCircle."])

            app.clock.advance(by: 60)
            let joined = try await app.request(
                .post,
                "/api/fitcircles/join",
                token: try await bo.token(app),
                json: ["invitationId": invitation.id]
            )
            #expect(joined.status == .ok, "\(joined.text)")
            #expect(try joined.decoded(as: Components.Schemas.FitCircle.self).memberCount == 2)
            let twice = try await app.request(
                .post,
                "/api/fitcircles/join",
                token: try await bo.token(app),
                json: ["invitationId": invitation.id]
            )
            // The same invitation again (a retry whose answer was lost): the circle as it is, nothing changed.
            #expect(twice.status == .ok, "\(twice.text)")
            #expect(try twice.decoded(as: Components.Schemas.FitCircle.self).memberCount == 2)
            let full = try await app.request(
                .post,
                "/api/fitcircles/join",
                token: try await cy.token(app),
                json: ["code": (circle.joinCode ?? "")]
            )
            #expect(full.status == .conflict)
            #expect(full.text.contains("full"))
            let members = try await app.api(as: bo).listFitCircleMembers(path: .init(id: id)).ok.body.json.items
            #expect(members.map(\.userId) == [ana.id, bo.id])
            #expect(members.map(\.role) == [.owner, .member])
        }
    }

    /// Weight-loss circles need each member's target; a member who leaves and returns has two stints; an
    /// owner who leaves hands the circle on, and the last one out archives it.
    @Test(arguments: Backend.available)
    func membershipIsKeptOverTimeAndTheCircleOutlivesItsOwner(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let (ana, bo, cy) = (
                try await app.person("ana@example.com"), try await app.person("bo@example.com"),
                try await app.person("cy@example.com")
            )
            let noTarget = try await app.request(
                .post,
                "/api/fitcircles",
                token: try await ana.token(app),
                json: ["name": "Lighter", "metric": "weight_loss_pct"]
            )
            #expect(noTarget.status == .unprocessableContent)
            #expect(noTarget.text.contains("targetWeightKg"))
            let circle = try await app.createCircle(
                by: ana,
                ["name": "Lighter", "metric": "weight_loss_pct", "privacy": "public", "targetWeightKg": 58]
            )
            let id = circle.id
            let code = try #require(circle.joinCode)
            let above = try await app.request(
                .post,
                "/api/fitcircles/join",
                token: try await bo.token(app),
                json: ["code": code, "targetWeightKg": 70]
            )
            #expect(above.status == .unprocessableContent)  // the profile says 62.5 kg: a target must be below
            for person in [bo, cy] {
                app.clock.advance(by: 60)
                let joined = try await app.request(
                    .post,
                    "/api/fitcircles/join",
                    token: try await person.token(app),
                    json: ["code": code.lowercased(), "targetWeightKg": 60]
                )
                #expect(joined.status == .ok, "\(joined.text)")
            }
            let members = try await app.api(as: bo).listFitCircleMembers(path: .init(id: id)).ok.body.json.items
            // Weight is only Bo's to see by default (visibility.weight only_me): his own row carries it.
            #expect(members.map(\.startingWeightKg) == [nil, 62.5, nil])
            #expect(members.map(\.targetWeightKg) == [nil, 60, nil])

            // Roles: a member may not remove; the owner names Cy admin; an admin removes members, not the owner.
            #expect(
                try await app.request(.delete, "/api/fitcircles/\(id)/members/\(cy.id)", token: try await bo.token(app))
                    .status == .forbidden
            )
            let promoted = try await app.request(
                .put,
                "/api/fitcircles/\(id)/members/\(cy.id)",
                token: try await ana.token(app),
                json: ["role": "admin"]
            )
            #expect(try promoted.decoded(as: Components.Schemas.CircleMember.self).role == .admin)
            #expect(
                try await app.request(
                    .delete,
                    "/api/fitcircles/\(id)/members/\(ana.id)",
                    token: try await cy.token(app)
                ).status == .forbidden
            )
            #expect(
                try await app.request(.delete, "/api/fitcircles/\(id)/members/\(bo.id)", token: try await cy.token(app))
                    .status == .noContent
            )
            app.clock.advance(by: 3_600)
            // The removal sticks until an admin lifts it; the code Bo knew was replaced.
            #expect(
                try await app.request(
                    .post,
                    "/api/fitcircles/join",
                    token: try await bo.token(app),
                    json: ["code": code, "targetWeightKg": 59]
                ).status == .notFound
            )
            let newCode = try #require(
                try await app.api(as: cy).getFitCircle(path: .init(id: id)).ok.body.json.joinCode
            )
            #expect(
                try await app.request(
                    .post,
                    "/api/fitcircles/join",
                    token: try await bo.token(app),
                    json: ["code": newCode, "targetWeightKg": 59]
                ).status == .forbidden
            )
            #expect(
                try await app.request(.delete, "/api/fitcircles/\(id)/bans/\(bo.id)", token: try await cy.token(app))
                    .status == .noContent
            )
            #expect(
                try await app.request(
                    .post,
                    "/api/fitcircles/join",
                    token: try await bo.token(app),
                    json: ["code": newCode, "targetWeightKg": 59]
                ).status == .ok
            )
            let stints = try await app.store.read { tx in try await tx.circles.memberships(of: FitCircle.ID(id)) }
            #expect(stints.map(\.userID.rawValue) == [ana.id, bo.id, cy.id, bo.id])
            #expect(stints.map { $0.leftAt != nil } == [false, true, false, false])
            #expect(stints.last?.targetWeightKg == 59)

            // The owner leaves: Cy, the admin, owns it; everyone leaves: archived, and nobody joins any more.
            #expect(
                try await app.request(.post, "/api/fitcircles/\(id)/leave", token: try await ana.token(app)).status
                    == .noContent
            )
            let handed = try await app.api(as: cy).getFitCircle(path: .init(id: id)).ok.body.json
            #expect(handed.ownerId == cy.id && handed.role == .owner)
            for person in [bo, cy] {
                _ = try await app.request(.post, "/api/fitcircles/\(id)/leave", token: try await person.token(app))
            }
            let archived = try await app.api(as: ana).getFitCircle(path: .init(id: id)).ok.body.json
            #expect(archived.archivedAt != nil && archived.memberCount == 0)
            #expect(
                try await app.request(
                    .post,
                    "/api/fitcircles/join",
                    token: try await ana.token(app),
                    json: ["code": newCode, "targetWeightKg": 58]
                ).status == .conflict
            )
        }
    }

    /// Once the competition has begun its metric cannot change, nor the limit fall below the members.
    @Test(arguments: Backend.available)
    func editsKeepWhatTheCompetitionStands(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let (ana, bo) = (try await app.person("ana@example.com"), try await app.person("bo@example.com"))
            let circle = try await app.createCircle(
                by: ana,
                ["name": "Walkers", "metric": "steps", "privacy": "public"]
            )
            let id = circle.id
            _ = try await app.request(
                .post,
                "/api/fitcircles/join",
                token: try await bo.token(app),
                json: ["code": (circle.joinCode ?? "")]
            )
            let token = try await ana.token(app)
            let metric = try await app.request(
                .put,
                "/api/fitcircles/\(id)",
                token: token,
                json: ["name": "Walkers", "metric": "checkin_streak"]
            )
            #expect(metric.status == .conflict)
            let limit = try await app.request(
                .put,
                "/api/fitcircles/\(id)",
                token: token,
                json: ["name": "Walkers", "metric": "steps", "memberLimit": 1]
            )
            #expect(limit.status == .unprocessableContent)
            let edited = try await app.request(
                .put,
                "/api/fitcircles/\(id)",
                token: token,
                json: ["name": "Night Walkers", "metric": "steps", "memberLimit": 2, "privacy": "public"]
            )
            #expect(try edited.decoded(as: Components.Schemas.FitCircle.self).name == "Night Walkers")
            #expect(
                try await app.request(
                    .put,
                    "/api/fitcircles/\(id)",
                    token: try await bo.token(app),
                    json: ["name": "Mine", "metric": "steps"]
                ).status == .forbidden
            )
            #expect(
                try await app.request(.delete, "/api/fitcircles/\(id)", token: try await bo.token(app)).status
                    == .forbidden
            )
            #expect(try await app.request(.delete, "/api/fitcircles/\(id)", token: token).status == .noContent)
            let invite = try await app.request(
                .post,
                "/api/fitcircles/\(id)/invite",
                token: token,
                json: ["email": "new@example.com"]
            )
            #expect(invite.status == .conflict)
        }
    }
}
