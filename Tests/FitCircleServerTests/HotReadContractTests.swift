import FitCircleAPI
import FitCircleCore
import FitCircleTesting
import Foundation
import HTTPTypes
import Testing

@testable import FitCircleServer

/// The hot reads (issue 42, `HotReads`) write their JSON by hand. Every such answer must be the generated
/// path's: the same bytes (so the same `ETag`), and decoded with the generated types, the same values. The
/// generated path answers the same read when a parameter the hot read leaves alone is sent (`via=generated`,
/// which the generated path ignores; a `limit` asks for another layout), so each board below is read both
/// ways, by each viewer, for each period.
struct HotReadContractTests {
    typealias Person = TestPerson

    /// The hot answer and the generated one of one read, compared byte for byte and value for value.
    static func compare(_ app: TestApp, _ path: String, generic: String, as person: Person, _ note: String) async throws
    {
        #expect(
            try await app.hotReadDifferences(path, generic: generic, as: person, Components.Schemas.Leaderboard.self)
                == [],
            "\(note)"
        )
    }

    /// Small circles (the whole roster, members yet to claim last), every period, names as each viewer may
    /// see them (one hidden from non-friends, one with quotes, a backslash, a slash and an emoji), photos,
    /// and a weight-loss board whose kilograms are hidden from some viewers.
    @Test(arguments: Backend.available)
    func aBoardWrittenByHandIsTheGeneratedAnswerForEveryViewer(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            app.clock.set(Date(timeIntervalSince1970: 1_772_442_000))  // Monday 2 March 2026, 10:00 in Paris
            let ana = try await app.person(named: "Ana")
            let bo = try await app.person(named: "Bo")
            try await app.setVisibility(of: bo, name: #"Bo "the \ rock" / 🏃"#, [:])
            let cy = try await app.person(named: "Cy")
            let dee = try await app.person(named: "Dee")
            try await app.setVisibility(
                of: cy,
                name: "Cy",
                ["boardName": "friends", "weight": "friends"]
            )
            try await app.uploadPhoto(of: ana)
            try await app.befriend(
                ana,
                cy
            )
            let walkers = try await app.createCircle(
                by: ana,
                ["name": "Walkers", "metric": "steps", "privacy": "public"]
            )
            let steps = walkers.id
            let kilos = try await app.createCircle(
                by: ana,
                [
                    "name": "Lighter", "metric": "weight_loss_pct", "privacy": "public", "startingWeightKg": 80,
                    "targetWeightKg": 70,
                ]
            )
            let kilosID = kilos.id
            for person in [bo, cy, dee] {
                #expect(
                    try await app.request(
                        .post,
                        "/api/fitcircles/join",
                        token: try await person.token(app),
                        json: ["code": (walkers.joinCode ?? "")]
                    ).status == .ok
                )
            }
            for person in [bo, cy] {
                let joined = try await app.request(
                    .post,
                    "/api/fitcircles/join",
                    token: try await person.token(app),
                    json: ["code": kilos.joinCode ?? "", "startingWeightKg": 100, "targetWeightKg": 80]
                )
                #expect(joined.status == .ok, "\(joined.text)")
            }
            for (person, count) in [(ana, 4_000), (bo, 9_000), (cy, 6_500)] {
                app.clock.advance(by: 60)
                _ = try await app.claim(count, in: steps, as: person)
            }
            for (person, kg) in [(ana, 76.0), (cy, 95.5)] {
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
                    try await app.request(
                        .post,
                        "/api/fitcircles/\(kilosID)/submit",
                        token: try await person.token(app)
                    ).status == .created
                )
            }
            for circle in [steps, kilosID] {
                try await app.untilBoardLoaded(circle, as: ana)
                for period in ["", "?period=daily", "?period=weekly", "?period=monthly", "?period=all_time"] {
                    let generic =
                        "/api/fitcircles/\(circle)/leaderboard\(period.isEmpty ? "?" : "\(period)&")via=generated"
                    for viewer in [ana, bo, cy, dee] where circle == steps || viewer.id != dee.id {
                        try await Self.compare(
                            app,
                            "/api/fitcircles/\(circle)/leaderboard\(period)",
                            generic: generic,
                            as: viewer,
                            "\(circle)\(period) as \(viewer.email)"
                        )
                    }
                }
            }
            // What each viewer saw is what privacy allows: Cy by name to her friend Ana only.
            let names = { (viewer: Person) in
                (try await app.board(steps, as: viewer)).rows.map {
                    $0.displayName
                }
            }
            #expect(try await names(ana) == [#"Bo "the \ rock" / 🏃"#, "Cy", "Ana", "Dee"])
            #expect(try await names(bo) == [#"Bo "the \ rock" / 🏃"#, "A member", "Ana", "Dee"])
        }
    }

    /// A large circle: the top 10 and the caller's neighbourhood, with its cursor, from the index and from SQL.
    @Test(arguments: Backend.available)
    func aLargeBoardWrittenByHandIsTheGeneratedAnswer(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            app.clock.set(Date(timeIntervalSince1970: 1_772_442_000))
            let (id, owner, members) = try await app.largeCircle(members: 60, distinctValues: 20)
            let token = try await app.onboardedUser("m30@example.com")
            let caller = TestPerson(email: "m30@example.com", token: token, id: members[30].rawValue)
            let path = "/api/fitcircles/\(id)/leaderboard"
            for period in ["daily", "weekly"] {
                app.engine.circles.events.indexes.drop(circle: id)
                try await Self.compare(
                    app,
                    "\(path)?period=\(period)",
                    generic: "\(path)?period=\(period)&via=generated",
                    as: caller,
                    "\(period), from SQL"
                )
                try await app.untilBoardLoaded(id.rawValue, as: caller)
                try await Self.compare(
                    app,
                    "\(path)?period=\(period)",
                    generic: "\(path)?period=\(period)&via=generated",
                    as: caller,
                    "\(period), from the index"
                )
                try await Self.compare(
                    app,
                    "\(path)?period=\(period)",
                    generic: "\(path)?period=\(period)&via=generated",
                    as: owner,
                    "\(period), unranked"
                )
            }
            #expect(try await app.board(id.rawValue, as: caller).layout == .topAndAround)
        }
    }

    /// What the hot read does not know it leaves to the generated path, which answers it as always; what it
    /// answers, it answers as that path would, errors and limits included.
    @Test(arguments: Backend.available)
    func aHotReadRefusesAndCountsAsTheGeneratedPathDoes(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let ana = try await app.person(named: "Ana")
            let eve = try await app.person(named: "Eve")
            let circle = try await app.createCircle(by: ana, ["name": "Walkers", "metric": "steps"]).id
            let path = "/api/fitcircles/\(circle)/leaderboard"
            let token = try await ana.token(app)

            let bad = try await app.request(.get, "\(path)?period=fortnightly", token: token)
            #expect(
                bad.status == .unprocessableContent && bad.headers[.contentType] == "application/problem+json",
                "\(bad.text)"
            )
            #expect(
                try bad.problem().errors == [
                    .init(
                        field: "period",
                        reason: "must be one of daily, weekly, monthly, all_time (not 'fortnightly')"
                    )
                ]
            )
            #expect(try await app.request(.get, "\(path)?period=daily&period=weekly", token: token).status == .ok)
            #expect(try await app.request(.get, path).status == .unauthorized)
            #expect(try await app.request(.get, path, token: "not-a-token").status == .unauthorized)
            // Someone outside the circle is refused by the use case, whichever path reads.
            for query in ["", "?limit=50"] {
                let refused = try await app.request(.get, "\(path)\(query)", token: try await eve.token(app))
                #expect(refused.status == .forbidden || refused.status == .notFound, "\(refused.text)")
                #expect(refused.headers[.contentType] == "application/problem+json")
            }
            let unknown = try await app.request(.get, "/api/fitcircles/nope/leaderboard", token: token)
            #expect(unknown.headers[.contentType] == "application/problem+json")
            #expect(
                unknown.status
                    == (try await app.request(.get, "/api/fitcircles/nope/leaderboard?limit=50", token: token)).status
            )

            // Each read counts against the caller's budget and says so.
            #expect(try await app.request(.get, path, token: token).headers[.rateLimitPolicy] != nil)
            // A 304 for the tag just given.
            let tag = try #require(try await app.request(.get, path, token: token).headers[.eTag])
            #expect(
                try await app.request(.get, path, token: token, headers: [.ifNoneMatch: tag]).status == .notModified
            )
        }
    }

    /// A hot read spends the caller's budget as any read does: refused with a 429 once it is spent.
    @Test(arguments: Backend.available)
    func aHotReadSpendsTheCallersBudget(_ backend: Backend) async throws {
        try await withTestApp(backend, limits: RequestLimits(perUser: 8)) { app async throws in
            let token = try await app.onboardedUser("ana@example.com")
            let created = try await app.request(
                .post,
                "/api/fitcircles",
                token: token,
                json: ["name": "Walkers", "metric": "steps"]
            )
            let path = "/api/fitcircles/\(try created.decoded(as: Components.Schemas.FitCircle.self).id)/leaderboard"
            var statuses: [Int] = []
            for _ in 0..<8 { statuses.append(Int(try await app.request(.get, path, token: token).status.code)) }
            #expect(statuses.first == 200 && statuses.last == 429 && statuses == statuses.sorted(), "\(statuses)")
            let refused = try await app.request(.get, path, token: token)
            #expect(refused.status == .tooManyRequests && refused.headers[.contentType] == "application/problem+json")
        }
    }

    /// A page kept for its viewer is served again only while nothing it shows has changed: after a claim, a
    /// rename, a name hidden from non-friends, a friendship that shows it again, a block, a member leaving and
    /// a new day, the next read is the generated path's answer (built again), and the one after it is kept.
    @Test(arguments: Backend.available)
    func aKeptPageIsServedAgainUntilAnythingOnItChanges(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            app.clock.set(Date(timeIntervalSince1970: 1_772_442_000))  // Monday 2 March 2026, 10:00 in Paris
            let (ana, bo, cy, dee) = (
                try await app.person(named: "Ana"), try await app.person(named: "Bo"),
                try await app.person(named: "Cy"),
                try await app.person(named: "Dee")
            )
            let walkers = try await app.createCircle(
                by: ana,
                ["name": "Walkers", "metric": "steps", "privacy": "public"]
            )
            let circle = walkers.id
            for person in [bo, cy, dee] {
                #expect(
                    try await app.request(
                        .post,
                        "/api/fitcircles/join",
                        token: try await person.token(app),
                        json: ["code": (walkers.joinCode ?? "")]
                    ).status == .ok
                )
            }
            _ = try await app.claim(4_000, in: circle, as: ana)
            _ = try await app.claim(3_000, in: circle, as: cy)
            try await app.untilBoardLoaded(circle, as: bo)

            var shown: [String: String] = [:]
            /// Bo's page of `period`, read twice: the first read is the generated path's answer and differs from
            /// the last one shown (something changed), the second is served again from what was kept.
            func changed(_ what: String, period: String = "weekly") async throws {
                let path = "/api/fitcircles/\(circle)/leaderboard?period=\(period)"
                #expect(
                    try await app.changedThenKeptDifferences(
                        path,
                        generic: "\(path)&via=generated",
                        as: bo,
                        Components.Schemas.Leaderboard.self,
                        shown: &shown[period, default: ""]
                    ) == [],
                    "\(what)"
                )
            }
            try await changed("the first read")
            try await changed("the first read of the daily board", period: "daily")

            _ = try await app.claim(6_000, in: circle, as: cy)
            try await changed("Cy's claim")
            var profile = TestApp.validProfile()
            profile["displayName"] = "Ana B."
            #expect(
                try await app.request(.put, "/api/user/profile", token: try await ana.token(app), json: profile).status
                    == .ok
            )
            try await changed("Ana's new name")
            try await app.setVisibility(of: cy, name: "Cy", ["boardName": "friends"])
            try await changed("Cy's name hidden from non-friends")
            // The friendship alone, through the store (accepting a request by HTTP changes more than that).
            let now = app.clock.now
            try await app.store.transaction { tx in
                try await tx.friends.befriend(User.ID(bo.id), User.ID(cy.id), at: now)
            }
            try await changed("Bo and Cy's friendship")
            _ = try await app.store.transaction { tx in try await tx.friends.unfriend(User.ID(bo.id), User.ID(cy.id)) }
            try await changed("Bo and Cy's friendship ending")
            #expect(
                try await app.request(
                    .post,
                    "/api/friends/blocks",
                    token: try await ana.token(app),
                    json: ["userId": bo.id]
                ).status == .noContent
            )
            try await changed("Ana's block")
            #expect(
                try await app.request(.post, "/api/fitcircles/\(circle)/leave", token: try await dee.token(app)).status
                    == .noContent
            )
            try await changed("Dee leaving")
            app.clock.advance(by: 24 * 3_600)
            try await changed("a new day", period: "daily")
        }
    }
}
