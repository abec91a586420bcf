import FitCircleClient
import FitCircleCore
import FitCircleTesting
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// What keeps a circle in its managers' hands: removal sticks, codes rotate, invitations lapse and can be
/// revoked, and invitations are capped and tell nothing about who has an account.
struct CircleModerationTests {
    typealias Person = TestPerson

    static func circle(_ app: TestApp, by owner: Person, privacy: String = "private") async throws -> (
        id: String, code: String
    ) {
        let created = try await app.createCircle(
            by: owner,
            ["name": "Walkers", "metric": "steps", "privacy": privacy]
        )
        return (created.id, try #require(created.joinCode))
    }

    static func join(_ app: TestApp, _ person: Person, _ body: [String: Any]) async throws -> TestResponse {
        try await app.request(.post, "/api/fitcircles/join", token: try await person.token(app), json: body)
    }

    @Test(arguments: Backend.available)
    func aRemovedMemberStaysOutUntilTheBanIsLifted(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let (ana, bo) = (try await app.person("ana@example.com"), try await app.person("bo@example.com"))
            let (id, code) = try await Self.circle(app, by: ana)
            #expect(try await Self.join(app, bo, ["code": code]).status == .ok)
            let owner = try await ana.token(app)
            #expect(
                try await app.request(.delete, "/api/fitcircles/\(id)/members/\(bo.id)", token: owner).status
                    == .noContent
            )

            // The code Bo knew no longer exists; the new one does not let him in either.
            #expect(try await Self.join(app, bo, ["code": code]).status == .notFound)
            let newCode = try #require(try await app.api(owner).getFitCircle(path: .init(id: id)).ok.body.json.joinCode)
            #expect(newCode != code)
            let refused = try await Self.join(app, bo, ["code": newCode])
            #expect(refused.status == .forbidden)
            #expect(try refused.problemType() == "/problems/forbidden")
            #expect(
                try await app.request(.post, "/api/fitcircles/\(id)/invite", token: owner, json: ["userId": bo.id])
                    .status == .conflict
            )

            let bans = try await app.api(owner).listFitCircleBans(path: .init(id: id)).ok.body.json.items
            #expect(bans.map(\.userId) == [bo.id])
            #expect(
                try await app.request(.get, "/api/fitcircles/\(id)/bans", token: try await bo.token(app)).status
                    == .notFound
            )
            #expect(
                try await app.request(.delete, "/api/fitcircles/\(id)/bans/\(bo.id)", token: owner).status == .noContent
            )
            #expect(
                try await app.request(.delete, "/api/fitcircles/\(id)/bans/\(bo.id)", token: owner).status == .notFound
            )
            #expect(try await Self.join(app, bo, ["code": newCode]).status == .ok)
        }
    }

    @Test(arguments: Backend.available)
    func aRotatedCodeReplacesTheOldOneAndOnlyManagersRotate(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let (ana, bo, cy) = (
                try await app.person("ana@example.com"), try await app.person("bo@example.com"),
                try await app.person("cy@example.com")
            )
            let (id, code) = try await Self.circle(app, by: ana)
            #expect(try await Self.join(app, bo, ["code": code]).status == .ok)
            #expect(
                try await app.request(.post, "/api/fitcircles/\(id)/code", token: try await bo.token(app)).status
                    == .forbidden
            )
            #expect(
                try await app.request(.post, "/api/fitcircles/\(id)/code", token: try await cy.token(app)).status
                    == .notFound
            )
            let rotated = try await app.request(.post, "/api/fitcircles/\(id)/code", token: try await ana.token(app))
            #expect(rotated.status == .ok)
            let newCode = try #require(try rotated.decoded(as: Components.Schemas.FitCircle.self).joinCode)
            #expect(newCode != code)
            #expect(try await Self.join(app, cy, ["code": code]).status == .notFound)
            #expect(try await Self.join(app, cy, ["code": newCode]).status == .ok)
        }
    }

    @Test(arguments: Backend.available)
    func anInvitationLapsesAfterFourteenDaysAndCanBeRevoked(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let (ana, bo, cy) = (
                try await app.person("ana@example.com"), try await app.person("bo@example.com"),
                try await app.person("cy@example.com")
            )
            let (id, _) = try await Self.circle(app, by: ana)
            let owner = try await ana.token(app)
            let toBo = try await app.request(
                .post,
                "/api/fitcircles/\(id)/invite",
                token: owner,
                json: ["userId": bo.id]
            ).decoded(as: Components.Schemas.CircleInvitation.self)
            let toCy = try await app.request(
                .post,
                "/api/fitcircles/\(id)/invite",
                token: owner,
                json: ["userId": cy.id]
            ).decoded(as: Components.Schemas.CircleInvitation.self)
            let pending = try await app.api(owner).listFitCircleInvitations(path: .init(id: id)).ok.body.json.items
            #expect(Set(pending.map(\.id)) == [toBo.id, toCy.id])
            // Bo may know the circle (he is invited), not manage it.
            #expect(
                try await app.request(.get, "/api/fitcircles/\(id)/invitations", token: try await bo.token(app)).status
                    == .forbidden
            )

            #expect(
                try await app.request(.delete, "/api/fitcircles/\(id)/invitations/\(toCy.id)", token: owner).status
                    == .noContent
            )
            #expect(
                try await app.request(.get, "/api/fitcircles/\(id)", token: try await cy.token(app)).status == .notFound
            )
            #expect(try await Self.join(app, cy, ["invitationId": toCy.id]).status == .notFound)

            #expect(try await app.request(.get, "/api/fitcircles/\(id)", token: try await bo.token(app)).status == .ok)
            app.clock.advance(by: 14 * 86_400 + 1)
            #expect(
                try await app.request(.get, "/api/fitcircles/\(id)", token: try await bo.token(app)).status == .notFound
            )
            #expect(try await Self.join(app, bo, ["invitationId": toBo.id]).status == .notFound)
            let lapsed = try await app.api(as: ana).listFitCircleInvitations(path: .init(id: id)).ok.body.json
            #expect(lapsed.items.isEmpty)
        }
    }

    @Test(arguments: Backend.available)
    func invitingByEmailAnswersAlikeWhetherOrNotTheAddressHasAnAccount(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let ana = try await app.person("ana@example.com")
            _ = try await app.person("bo@example.com")
            let (id, _) = try await Self.circle(app, by: ana)
            let owner = try await ana.token(app)
            let known = try await app.request(
                .post,
                "/api/fitcircles/\(id)/invite",
                token: owner,
                json: ["email": "bo@example.com"]
            )
            let unknown = try await app.request(
                .post,
                "/api/fitcircles/\(id)/invite",
                token: owner,
                json: ["email": "nobody@example.com"]
            )
            #expect(known.status == unknown.status)
            #expect(Set(try known.jsonObject().keys) == Set(try unknown.jsonObject().keys))
            #expect(try known.jsonObject()["userId"] == nil)
        }
    }

    @Test(arguments: Backend.available)
    func invitationsAreCappedPerRecipientAndPerSenderADay(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let ana = try await app.person("ana@example.com")
            let owner = try await ana.token(app)
            var circles: [String] = []
            for _ in 0...InvitationLimits.receivedPerDay { circles.append(try await Self.circle(app, by: ana).id) }
            for circle in circles.dropLast() {
                #expect(
                    try await app.request(
                        .post,
                        "/api/fitcircles/\(circle)/invite",
                        token: owner,
                        json: ["email": "target@example.com"]
                    ).status == .created
                )
            }
            let capped = try await app.request(
                .post,
                "/api/fitcircles/\(circles.last!)/invite",
                token: owner,
                json: ["email": "target@example.com"]
            )
            #expect(capped.status == .tooManyRequests)
            #expect(try capped.problemType() == "/problems/rate-limited")
            #expect(Int(capped.headers[.retryAfter] ?? "") ?? 0 > 0)

            for index in 0..<(InvitationLimits.sentPerDay - InvitationLimits.receivedPerDay) {
                let response = try await app.request(
                    .post,
                    "/api/fitcircles/\(circles[0])/invite",
                    token: owner,
                    json: ["email": "p\(index)@example.com"]
                )
                #expect(response.status == .created)
            }
            let senderCapped = try await app.request(
                .post,
                "/api/fitcircles/\(circles[0])/invite",
                token: owner,
                json: ["email": "one-more@example.com"]
            )
            #expect(senderCapped.status == .tooManyRequests)
            app.clock.advance(by: 86_400)
            let nextDay = try await app.request(
                .post,
                "/api/fitcircles/\(circles[0])/invite",
                token: try await ana.token(app),
                json: ["email": "one-more@example.com"]
            )
            #expect(nextDay.status == .created)
        }
    }
}
