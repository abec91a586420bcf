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

/// Circle boards through the API: ties, large circles, history, the refresh and the live stream (spec 000's
/// Flow 3 is in the acceptance suite, `Spec000Flow3Tests`).
struct LeaderboardTests {
    typealias Person = TestPerson

    @Test(arguments: Backend.available)
    func tiesGoToWhoReachedTheValueFirstStablyAcrossRestartsAndReplay(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            app.clock.set(Date(timeIntervalSince1970: 1_772_442_000))  // Monday 2 March 2026, 10:00 in Paris
            let ana = try await app.person(named: "Ana")
            let bo = try await app.person(named: "Bo")
            let cy = try await app.person(named: "Cy", timeZone: "America/Los_Angeles")
            let circle = try await app.createCircle(
                by: ana,
                ["name": "Ties", "metric": "steps", "privacy": "public", "startDate": "2026-03-01"]
            )
            let id = circle.id
            for person in [bo, cy] {
                #expect(
                    try await app.request(
                        .post,
                        "/api/fitcircles/join",
                        token: try await person.token(app),
                        json: ["code": (circle.joinCode ?? "")]
                    ).status == .ok
                )
            }
            // Cy (in Los Angeles, still Monday there) reaches 5,000 last; Bo first; Ana in between.
            _ = try await app.claim(4_000, in: id, as: cy)
            app.clock.advance(by: 60)
            _ = try await app.claim(5_000, in: id, as: bo)
            app.clock.advance(by: 60)
            _ = try await app.claim(5_000, in: id, as: ana)
            app.clock.advance(by: 60)
            _ = try await app.claim(5_000, in: id, as: cy)
            // A new weight on the same steps leaves Ana's claim as reached before.
            app.clock.advance(by: 60)
            let weighIn = try await app.request(
                .post,
                "/api/activities",
                token: try await ana.token(app),
                json: [
                    "clientEventId": "w-1", "type": "weight", "source": "manual",
                    "occurredAt": ISO8601DateFormatter().string(from: app.clock.now), "weightKg": 61.0,
                ]
            )
            #expect(weighIn.status == .created, "\(weighIn.text)")
            _ = try await app.request(.post, "/api/fitcircles/\(id)/submit", token: try await ana.token(app))

            let expected: [String?] = ["Bo", "Ana", "Cy"]
            let response = try await app.request(
                .get,
                "/api/fitcircles/\(id)/leaderboard",
                token: try await ana.token(app)
            )
            #expect(response.headers[HTTPField.Name("FitCircle-Board-Source")!] == "database")
            #expect(try response.decoded(as: Components.Schemas.Leaderboard.self).rows.map(\.displayName) == expected)
            try await app.untilBoardLoaded(id, as: ana)
            #expect((try await app.board(id, as: ana)).rows.map { $0.displayName } == expected)

            // A restart: this node's indexes are gone; SQL answers the same, then the index again.
            app.engine.circles.events.indexes.drop(circle: FitCircle.ID(id))
            #expect((try await app.board(id, as: bo)).rows.map { $0.displayName } == expected)

            // A replay: the stored boards are wiped and rebuilt from the claims by an operator's refresh.
            try await app.store.execute(unsafeSQL: "DELETE FROM board_scores")
            let member = try await app.request(
                .post,
                "/api/fitcircles/\(id)/leaderboard/refresh",
                token: try await ana.token(app)
            )
            #expect(member.status == .forbidden)
            let operatorAPI = app.api(try await app.operatorToken())
            let report = try await operatorAPI.refreshFitCircleLeaderboard(path: .init(id: id)).ok.body.json
            let weeklyReport = try #require(report.items.first { $0.period == .weekly })
            #expect(weeklyReport.corrected == 3 && weeklyReport.entries == 3)
            #expect((try await app.board(id, as: cy)).rows.map { $0.displayName } == expected)
            // A second rebuild finds nothing to correct in any of the four periods.
            let items = try await operatorAPI.refreshFitCircleLeaderboard(path: .init(id: id)).ok.body.json.items
            #expect(Set(items.map(\.period)) == [.daily, .weekly, .monthly, .allTime])
            #expect(items.map(\.corrected) == Array(repeating: 0, count: items.count))
            #expect(items.map { $0.indexDifferences ?? 0 } == Array(repeating: 0, count: items.count))
            let standings = try await app.api(as: ana).getFitCircleMemberStandings(path: .init(id: id, userId: cy.id))
            #expect(try standings.ok.body.json.items.map(\.row.rank) == [3, 3, 3, 3])
        }
    }

    /// Once the board is in the index, a read runs no SQL at all (the circle, its roster and the rows' people
    /// come from the node's memory, like the caller's session), yet a rename or a member leaving shows at once.
    @Test(arguments: Backend.available)
    func aWarmBoardReadRunsNoSQLYetShowsEveryChangeAtOnce(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            app.clock.set(Date(timeIntervalSince1970: 1_772_442_000))  // Monday 2 March 2026, 10:00 in Paris
            let (ana, bo, cy) = (
                try await app.person(named: "Ana"), try await app.person(named: "Bo"), try await app.person(named: "Cy")
            )
            let circle = try await app.createCircle(
                by: ana,
                ["name": "Warm", "metric": "steps", "privacy": "public"]
            )
            let id = circle.id
            for person in [bo, cy] {
                let joined = try await app.request(
                    .post,
                    "/api/fitcircles/join",
                    token: try await person.token(app),
                    json: ["code": (circle.joinCode ?? "")]
                )
                #expect(joined.status == .ok)
            }
            _ = try await app.claim(5_000, in: id, as: ana)
            _ = try await app.claim(7_000, in: id, as: bo)
            try await app.untilBoardLoaded(id, as: ana)
            let token = try await ana.token(app)
            func read() async throws -> (rows: [String], members: Int?) {
                let response = try await app.request(.get, "/api/fitcircles/\(id)/leaderboard", token: token)
                let board = try response.decoded(as: Components.Schemas.Leaderboard.self)
                return (board.rows.map(\.displayName), board.memberCount)
            }

            #expect(try await read() == (["Bo", "Ana", "Cy"], 3))
            let before = app.store.transactionsCompleted
            #expect(try await read() == (["Bo", "Ana", "Cy"], 3))
            #expect(app.store.transactionsCompleted == before, "a warm board read ran SQL")

            var profile = TestApp.validProfile()
            profile["displayName"] = "Bo B."
            #expect(
                try await app.request(.put, "/api/user/profile", token: try await bo.token(app), json: profile).status
                    == .ok
            )
            #expect(try await read() == (["Bo B.", "Ana", "Cy"], 3))

            #expect(
                try await app.request(.post, "/api/fitcircles/\(id)/leave", token: try await cy.token(app)).status
                    == .noContent
            )
            #expect(try await read() == (["Bo B.", "Ana"], 2))
        }
    }

    /// Above 100 members: the top 10 and the caller with 3 above and 3 below; the cursor walks the rest,
    /// every member once, in order, the same from SQL and from the index.
    @Test(arguments: Backend.available)
    func aLargeCircleShowsTheTopAndTheCallersNeighbourhoodAndPagesThroughTheRest(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            app.clock.set(Date(timeIntervalSince1970: 1_772_442_000))  // Monday 2 March 2026, 10:00 in Paris
            let (id, _, members) = try await app.largeCircle(members: 120, distinctValues: 40)
            let token = try await app.onboardedUser("m60@example.com")
            let caller = TestPerson(email: "m60@example.com", token: token, id: members[60].rawValue)
            app.engine.circles.events.indexes.drop(circle: id)
            for source in ["database", "index"] {
                let response = try await app.request(
                    .get,
                    "/api/fitcircles/\(id)/leaderboard",
                    token: try await caller.token(app)
                )
                #expect(response.headers[HTTPField.Name("FitCircle-Board-Source")!] == source)
                let board = try response.decoded(as: Components.Schemas.Leaderboard.self)
                #expect(board.layout == .topAndAround && board.entries == 120 && board.memberCount == 121)
                let rows = board.rows
                let own = try #require(rows.first { $0.isCaller == true }?.rank)
                #expect(rows.compactMap { $0.rank } == Array(1...10) + Array((own - 3)...(own + 3)))
                // Walking on from the top 10 visits ranks 11…120 once each, in the board's order.
                var walked = rows.prefix(10).map { $0.value ?? -1 }
                var ranks = Array(1...10)
                var cursor = board.nextCursor
                while let next = cursor {
                    let page = try await app.board(id.rawValue, as: caller, query: "&limit=25&cursor=\(next)")
                    #expect(page.layout == .page)
                    walked += page.rows.map { $0.value ?? -1 }
                    ranks += page.rows.compactMap { $0.rank }
                    cursor = page.nextCursor
                }
                #expect(ranks == Array(1...120))
                #expect(walked == walked.sorted(by: >))
                if source == "database" { try await app.untilBoardLoaded(id.rawValue, as: caller) }
            }
            let bad = try await app.request(
                .get,
                "/api/fitcircles/\(id)/leaderboard?cursor=nope",
                token: try await caller.token(app)
            )
            #expect(bad.status == .unprocessableContent)
            #expect(try bad.problem().fields.contains("cursor"), "\(bad.text)")
        }
    }

    /// A member's stream hears each claim's rank changes and feed item as it happens; outsiders get 404.
    @Test(arguments: Backend.available)
    func theCircleStreamCarriesRanksAndFeedItemsAsTheyHappen(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            app.clock.set(Date(timeIntervalSince1970: 1_772_442_000))
            let ana = try await app.person(named: "Ana")
            let bo = try await app.person(named: "Bo")
            let outsider = try await app.person(named: "Eve")
            let circle = try await app.createCircle(
                by: ana,
                ["name": "Live", "metric": "steps", "privacy": "private"]
            )
            let id = circle.id
            #expect(
                try await app.request(
                    .post,
                    "/api/fitcircles/join",
                    token: try await bo.token(app),
                    json: ["code": (circle.joinCode ?? "")]
                ).status == .ok
            )
            let token = try await ana.token(app)
            async let streamed = app.request(.get, "/api/fitcircles/\(id)/stream?seconds=10", token: token)
            for _ in 0..<300 where app.engine.circles.events.listeners(of: .circle(FitCircle.ID(id))) == 0 {
                try await Task.sleep(for: .milliseconds(10))
            }
            _ = try await app.claim(7_500, in: id, as: bo)
            let response = try await streamed
            #expect(response.status == .ok)
            let events = ServerSentEvent.all(in: response.text)
            #expect(events.first?.event == "ready")
            let ranks = try events.filter { $0.event == "rank" }.map {
                try $0.decoded(as: Components.Schemas.RankUpdate.self)
            }
            #expect(Set(ranks.map(\.period)) == [.daily, .weekly, .monthly, .allTime])
            #expect(ranks.allSatisfy { $0.userId == bo.id && $0.rank == 1 && $0.value == 7_500 })
            let feed = try events.filter { $0.event == "feed" }.map {
                try $0.decoded(as: Components.Schemas.FeedItem.self)
            }
            #expect(feed.map(\.text) == ["🏃 Bo submitted 7,500 steps—now #1!"])

            #expect(
                try await app.request(
                    .get,
                    "/api/fitcircles/\(id)/stream?seconds=1",
                    token: try await outsider.token(app)
                ).status == .notFound
            )
            #expect(
                try await app.request(.get, "/api/fitcircles/\(id)/stream?seconds=0", token: token).status
                    == .unprocessableContent
            )
        }
    }

    /// A member's streak milestone and badge reach the feeds of their circles; a day claimed to two circles
    /// earns the submission points once.
    @Test(arguments: Backend.available)
    func membersNewsReachesTheirCirclesAndAClaimedDayEarnsPointsOnce(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            app.clock.set(Date(timeIntervalSince1970: 1_772_442_000))  // Monday 2 March 2026, 10:00 in Paris
            let ana = try await app.person(named: "Ana")
            let bo = try await app.person(named: "Bo")
            var circles: [String] = []
            for name in ["One", "Two"] {
                let circle = try await app.createCircle(
                    by: bo,
                    ["name": name, "metric": "steps", "privacy": "public"]
                )
                #expect(
                    try await app.request(
                        .post,
                        "/api/fitcircles/join",
                        token: try await ana.token(app),
                        json: ["code": (circle.joinCode ?? "")]
                    ).status == .ok
                )
                circles.append(circle.id)
            }
            try await app.syncSteps(3_000, as: ana, id: "sync-1")
            #expect(
                try await app.request(.post, "/api/user/submissions", token: try await ana.token(app)).status == .ok
            )
            #expect(
                try await app.request(.post, "/api/fitcircles/\(circles[0])/submit", token: try await ana.token(app))
                    .status == .ok
            )
            let lines = try await app.store.read { tx in
                try await tx.points.lines(
                    of: User.ID(ana.id),
                    from: LocalDate(year: 2026, month: 3, day: 2)!,
                    to: LocalDate(year: 2026, month: 3, day: 2)!
                )
            }
            #expect(lines.filter { $0.reason == .submission }.map(\.amount) == [5])

            for _ in 0..<7 {
                _ = try await app.api(as: "ana@example.com").checkIn(body: .json(.init(mood: 4, energy: 3))).created
                app.clock.advance(by: 86_400)
            }
            _ = try await app.notifications(of: ana, type: "achievement")  // runs the queued jobs
            for circle in circles {
                let texts = try await app.feedTexts(of: circle, as: bo)
                #expect(texts.filter { $0 == "🔥 Ana reached a 7-day streak" }.count == 1, "\(texts)")
                #expect(texts.filter { $0 == "🏅 Ana earned the 1 Week Warrior badge" }.count == 1, "\(texts)")
            }
        }
    }

    /// Board rows, members and feed items carry the member's photo, served to circle mates only; a member
    /// is encouraged on their newest item; a weight-loss board ranks the percent of each member's own goal.
    @Test(arguments: Backend.available)
    func photosGoToCircleMatesMembersAreEncouragedAndWeightLossRanksThePercentOfTheGoal(_ backend: Backend) async throws
    {
        try await withTestApp(backend) { app async throws in
            app.clock.set(Date(timeIntervalSince1970: 1_772_442_000))  // Monday 2 March 2026, 10:00 in Paris
            let ana = try await app.person(named: "Ana")
            let bo = try await app.person(named: "Bo")
            let eve = try await app.person(named: "Eve")
            let png = Data(TestImages.png(withText: nil))
            #expect(
                try await app.request(
                    .post,
                    "/api/user/profile/photo",
                    token: try await ana.token(app),
                    body: png,
                    headers: [.contentType: "image/png"]
                )
                .status == .ok
            )
            // Ana starts at 80 kg aiming for 70; Bo at 100 aiming for 80.
            let circle = try await app.createCircle(
                by: ana,
                [
                    "name": "Lighter", "metric": "weight_loss_pct", "privacy": "public", "startingWeightKg": 80,
                    "targetWeightKg": 70,
                ]
            )
            let id = circle.id
            let joined = try await app.request(
                .post,
                "/api/fitcircles/join",
                token: try await bo.token(app),
                json: ["code": (circle.joinCode ?? ""), "startingWeightKg": 100, "targetWeightKg": 80]
            )
            #expect(joined.status == .ok, "\(joined.text)")
            for (person, kg) in [(ana, 76.0), (bo, 95.0)] {
                app.clock.advance(by: 60)
                let weighIn = try await app.request(
                    .post,
                    "/api/activities",
                    token: try await person.token(app),
                    json: [
                        "clientEventId": "w-\(person.id)", "type": "weight", "source": "manual",
                        "occurredAt": ISO8601DateFormatter().string(from: app.clock.now), "weightKg": kg,
                    ]
                )
                #expect(weighIn.status == .created, "\(weighIn.text)")
                #expect(
                    try await app.request(.post, "/api/fitcircles/\(id)/submit", token: try await person.token(app))
                        .status == .created
                )
            }
            // The daily board ranks the share of the goal: Ana (80 − 76) / (80 − 70) = 40 %, Bo (100 − 95) /
            // (100 − 80) = 25 %. (The weekly board ranks this week's target, `Spec000WeightLossTests`.)
            let rows = (try await app.board(id, "daily", as: bo)).rows
            #expect(rows.map { $0.displayName } == ["Ana", "Bo"])
            #expect(rows.map { $0.value } == [40, 25])
            #expect(rows.map { $0.photoUrl } == ["/api/users/\(ana.id)/photo", nil])
            let members = try await app.api(as: bo).listFitCircleMembers(path: .init(id: id)).ok.body.json.items
            let photos = members.map { ($0.userId, $0.photoUrl) }
            #expect(photos.filter { $0.1 != nil }.map(\.0) == [ana.id])
            let seen = try await app.request(.get, "/api/users/\(ana.id)/photo", token: try await bo.token(app))
            #expect(seen.status == .ok && seen.headers[.contentType] == "image/png")
            #expect(
                try await app.request(.get, "/api/users/\(ana.id)/photo", token: try await eve.token(app)).status == .ok
            )  // `everyone` by default
            #expect(
                try await app.request(.get, "/api/users/\(bo.id)/photo", token: try await ana.token(app)).status
                    == .notFound
            )  // Bo has none

            // Encouraging Ana lands on her newest item (her weigh-in), once.
            let cheer = try await app.request(
                .post,
                "/api/fitcircles/\(id)/members/\(ana.id)/encourage",
                token: try await bo.token(app),
                json: [:]
            )
            #expect(cheer.status == .created, "\(cheer.text)")
            #expect(
                try await app.request(
                    .post,
                    "/api/fitcircles/\(id)/members/\(ana.id)/encourage",
                    token: try await bo.token(app),
                    json: [:]
                ).status == .ok
            )
            let feed = try await app.api(as: ana).getFitCircleFeed(path: .init(id: id)).ok.body.json.items
            let cheered = feed.filter { $0.encouragements > 0 }
            #expect(cheered.map(\.text) == ["⚖️ Ana weighed in at 40% of their goal—now #1!"])
            #expect(cheered.first?.actorPhotoUrl == "/api/users/\(ana.id)/photo")
            #expect(
                try await app.request(
                    .post,
                    "/api/fitcircles/\(id)/members/\(eve.id)/encourage",
                    token: try await bo.token(app),
                    json: [:]
                ).status == .notFound
            )
        }
    }
}
