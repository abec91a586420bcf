import FitCircleClient
import FitCircleCore
import FitCircleStore
import FitCircleTesting
import Foundation
import HTTPTypes
import Testing

/// `DELETE /api/user` (spec 004, R11.7): a fresh sign-in, then nothing of the person left in any cell of
/// any table, circles handed on, boards without them, others' notifications naming "Deleted user".
struct AccountDeletionTests {
    typealias Person = TestPerson

    static func named(_ app: TestApp, _ name: String) async throws -> Person {
        try await app.person(named: name)
    }

    /// Where `needle` is, as text or inside base64 (remembered responses are stored so), by column.
    static func mentions(_ app: TestApp, _ needle: String) async throws -> [String: Int] {
        try await app.store.read { tx in
            var found = try await tx.accounts.cells(containing: needle)
            for fragment in Base64Fragments.of(needle) {
                found.merge(try await tx.accounts.cells(containing: fragment)) { $0 + $1 }
            }
            return found
        }
    }

    /// Ana, in every corner of the schema: friends, a request, a block, workouts and reactions both ways, a
    /// circle she owns and one she is in with claims on both boards, encouragement, invitations to and
    /// from her address, a device, a photo, a remembered response. Then she deletes her account.
    @Test(arguments: Backend.available)
    func r11_7_aDeletedAccountLeavesNothingInAnyColumnOfAnyTable(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let (ana, bo, cy, dee) = (
                try await Self.named(app, "Ana"), try await Self.named(app, "Bo"), try await Self.named(app, "Cy"),
                try await Self.named(app, "Dee")
            )
            let friends = ana
            let (boFriend, cyFriend, deeFriend) = (
                bo, cy,
                dee
            )
            try await app.befriend(friends, boFriend)
            _ = try await app.friendAction("/api/friends/request", by: cyFriend, to: friends)
            _ = try await app.friendAction("/api/friends/block", by: friends, to: deeFriend)
            let hers = try await app.recordWorkout(
                "hers",
                by: friends,
                minutesAgo: 30,
                route: Polyline.encode([(48.85, 2.35), (48.86, 2.36)])
            )
            let his = try await app.recordWorkout("his", by: boFriend, minutesAgo: 20)
            for (person, activity) in [(bo, hers), (ana, his)] {
                let reacted = try await app.request(
                    .post,
                    "/api/activities/\(activity)/reactions",
                    token: try await person.token(app),
                    json: ["reaction": "🔥"]
                )
                #expect(reacted.status == .ok || reacted.status == .created, "\(reacted.text)")
            }
            // Her circle, which Bo joins; Bo's, which she joins. Both claim on both.
            let hersCircle = try await app.createCircle(by: ana, ["name": "Ana's", "metric": "steps"]).id
            let hisCircle = try await app.createCircle(by: bo, ["name": "Bo's", "metric": "steps"])
            let hisID = hisCircle.id
            let herCode = try #require(
                try await app.api(as: ana).getFitCircle(path: .init(id: hersCircle)).ok.body.json.joinCode
            )
            #expect(
                try await app.request(
                    .post,
                    "/api/fitcircles/join",
                    token: try await bo.token(app),
                    json: ["code": herCode]
                ).status == .ok
            )
            #expect(
                try await app.request(
                    .post,
                    "/api/fitcircles/join",
                    token: try await ana.token(app),
                    json: ["code": (hisCircle.joinCode ?? "")]
                ).status == .ok
            )
            for (offset, circle) in [hersCircle, hisID].enumerated() {
                _ = try await app.claim(9_000 + offset, in: circle, as: ana)
                _ = try await app.claim(7_000 + offset, in: circle, as: bo)
            }
            let feed = try await app.api(as: ana).getFitCircleFeed(path: .init(id: hisID)).ok.body.json
            let bosItem = try #require(feed.items.first { $0.actorId == bo.id }?.id)
            #expect(
                try await app.request(
                    .post,
                    "/api/fitcircles/\(hisID)/feed/\(bosItem)/encourage",
                    token: try await ana.token(app),
                    json: [:]
                ).status.code < 300
            )
            #expect(
                try await app.request(
                    .post,
                    "/api/fitcircles/\(hersCircle)/invite",
                    token: try await ana.token(app),
                    json: ["email": "someone@example.com"]
                ).status == .created
            )
            #expect(
                try await app.request(
                    .post,
                    "/api/fitcircles/\(hisID)/invite",
                    token: try await bo.token(app),
                    json: ["email": ana.email.uppercased()]
                ).status == .created
            )
            // Her challenge: Bo invited and in, both staked; she leads its board.
            for person in [ana, bo] {
                let now = app.clock.now
                try await app.store.transaction { tx in
                    try await tx.points.append(
                        [
                            PointsLine(
                                id: .init("seed-\(person.id)"),
                                date: LocalDate(now, in: .gmt),
                                amount: 200,
                                reason: .goalMet,
                                sourceKey: "seed",
                                createdAt: now
                            )
                        ],
                        of: User.ID(person.id)
                    )
                    try await tx.points.save(RewardStats(totalPoints: 200, level: 1), of: User.ID(person.id), at: now)
                }
            }
            let challenge = try await app.request(
                .post,
                "/api/competitions",
                token: try await ana.token(app),
                json: [
                    "name": "The race", "type": "distance", "durationDays": 3, "stake": 50, "invitees": [bo.id],
                ]
            )
            let challengeID = try challenge.decoded(as: Components.Schemas.Competition.self).id
            _ = try await app.joinChallenge(challengeID, as: bo).ok
            _ = try await app.recordWorkout("her-run", by: friends, minutesAgo: 0)
            let token = try await ana.token(app)
            #expect(
                try await app.request(
                    .post,
                    "/api/notifications/register",
                    token: token,
                    json: ["platform": "android", "token": "anas-phone"]
                ).status == .created
            )
            let photo = try await app.request(
                .post,
                "/api/user/profile/photo",
                token: token,
                body: Data(TestImages.png(withText: nil)),
                headers: [.contentType: "application/octet-stream"]
            )
            #expect(photo.status == .ok)
            // Cy asks again, remembered under a key: Cy's stored response names Ana.
            let remembered = try await app.request(
                .post,
                "/api/friends/request",
                token: try await cy.token(app),
                json: ["userId": ana.id],
                headers: [HTTPField.Name("Idempotency-Key")!: "cy-asks-ana"]
            )
            #expect(remembered.status == .created || remembered.status == .ok, "\(remembered.text)")
            _ = try await app.notifications(of: bo, type: "reaction_received")  // every raise decided
            let before = try await Self.mentions(app, ana.id)
            #expect(before.count > 20 && before["idempotency_keys.body"] != nil, "the world holds her: \(before)")
            // An address that holds hers (mariana@… ⊃ ana@…) keeps everything: Jo's invitation of it and the
            // response remembered for it.
            let jo = try await Self.named(app, "Jo")
            let josCircle = try await app.createCircle(by: jo, ["name": "Jo's", "metric": "steps"]).id
            let invited = try await app.request(
                .post,
                "/api/fitcircles/\(josCircle)/invite",
                token: try await jo.token(app),
                json: ["email": "mariana@example.com"],
                headers: [HTTPField.Name("Idempotency-Key")!: "jo-invites-mariana"]
            )
            #expect(invited.status == .created, "\(invited.text)")
            let bystander = try await Self.mentions(app, "mariana@example.com")
            #expect(
                bystander["idempotency_keys.body"] == 1 && bystander["circle_invitations.email"] == 1,
                "\(bystander)"
            )

            // A sign-in older than 10 minutes is not enough; nothing changes.
            app.clock.advance(by: 11 * 60)
            let stale = try await app.request(.delete, "/api/user", token: token)
            #expect(stale.status == .forbidden && stale.text.contains("sign in again"), "\(stale.text)")
            #expect(try stale.problemType() == "/problems/fresh-sign-in-required")
            #expect(try await app.request(.get, "/api/user/profile", token: token).status == .ok)

            let fresh = try await ana.token(app)
            #expect(try await app.request(.delete, "/api/user", token: fresh).status == .noContent)
            // Every token stops at once: the stale one, the fresh one.
            for token in [token, fresh] {
                #expect(try await app.request(.get, "/api/user/profile", token: token).status == .unauthorized)
            }

            for needle in [ana.id, ana.email] {
                let left = try await Self.mentions(app, needle)
                // Mariana's address holds Ana's: what remains of it is hers, as it was.
                #expect(left == (needle == ana.email ? bystander : [:]), "\(needle) is still in \(left)")
            }
            #expect(try await Self.mentions(app, "mariana@example.com") == bystander)
            // Her circle is Bo's now; neither board shows her; Bo's notifications name "Deleted user".
            let handed = try await app.api(as: bo).getFitCircle(path: .init(id: hersCircle)).ok.body.json
            #expect(handed.role == .owner, "\(handed)")
            for circle in [hersCircle, hisID] {
                let rows = (try await app.board(circle, as: bo)).rows
                #expect(rows.map { $0.userId } == [bo.id] && rows.first?.rank == 1, "\(rows)")
            }
            let bodies = try await app.api(as: bo).getNotificationInbox().ok.body.json.items.map(\.body)
            #expect(
                bodies.contains { $0.hasPrefix("Deleted user reacted") } && !bodies.contains { $0.contains("Ana") },
                "\(bodies)"
            )
            #expect(try await app.friendIDs(of: boFriend).isEmpty)
            // Her challenge goes on without her: made by nobody now, her stake gone from escrow with her ledger.
            let race = try await app.api(as: bo).getCompetitionLeaderboard(path: .init(id: challengeID)).ok.body.json
            #expect(
                race.competition.creatorId == "deleted" && race.competition.escrow == 50
                    && race.competition.participantCount == 1,
                "\(race.competition)"
            )
            #expect(race.rows.map(\.userId) == [bo.id], "\(race)")
            #expect(try await app.engine.replay.escrowDifferences().isEmpty)
        }
    }

    /// What another node shows of a deleted person: its board drops her row as the deletion commits (the
    /// board change every node applies to its index), and her token stops working there too.
    @Test(arguments: Backend.available.filter { $0 == .postgres })
    func r11_7_theOtherNodesBoardsForgetADeletedPerson(_ backend: Backend) async throws {
        try await ServerProcess.withTwoNodes(backend) { nodeA, nodeB, _ in
            let ana = try await nodeA.member("ana@example.com")
            let bo = try await nodeB.member("bo@example.com")
            let circle = try await nodeB.post(
                "/api/fitcircles",
                token: bo.token,
                json: ["name": "Two nodes", "metric": "steps"]
            )
            .1.decoded(as: Components.Schemas.FitCircle.self)
            let id = circle.id
            let joined = try await nodeA.post(
                "/api/fitcircles/join",
                token: ana.token,
                json: ["code": try #require(circle.joinCode)]
            )
            #expect(joined.0 == 200, "\(joined.0): \(String(decoding: joined.1, as: UTF8.self))")
            for (person, steps) in [(ana, 9_000), (bo, 7_000)] {
                let sync: [String: Any] = [
                    "clientEventId": "sync-\(steps)", "type": "steps", "source": "healthkit",
                    "occurredAt": ISO8601DateFormatter().string(from: Date()), "steps": steps,
                ]
                #expect(try await nodeA.post("/api/activities", token: person.token, json: sync).0 == 201)
                #expect(try await nodeA.post("/api/fitcircles/\(id)/submit", token: person.token, json: [:]).0 == 201)
            }
            func boardOnB() async throws -> [String] {
                let board = try await nodeB.get("/api/fitcircles/\(id)/leaderboard", token: bo.token).1
                return try board.decoded(as: Components.Schemas.Leaderboard.self).rows.compactMap(\.userId)
            }
            // Node B serves the board from its index, with Ana on it.
            var loaded = false
            for _ in 0..<100 where !loaded {
                loaded = try await nodeB.boardSource(id, token: bo.token) == "index"
                if !loaded { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(loaded)
            #expect(try await boardOnB() == [ana.id, bo.id])

            #expect(try await nodeA.post("/api/user", token: ana.token, json: [:], method: .DELETE).0 == 204)
            let deleted = ContinuousClock.now
            var board = try await boardOnB()
            while board != [bo.id] && ContinuousClock.now - deleted < ServerProcess.notifyBound {
                try await Task.sleep(for: .milliseconds(20))
                board = try await boardOnB()
            }
            #expect(board == [bo.id], "node B's board after \(ContinuousClock.now - deleted)")
            #expect(try await nodeB.boardSource(id, token: bo.token) == "index")
            #expect(try await nodeB.get("/api/user/profile", token: ana.token).0 == 401)
        }
    }
}
