import FitCircleTesting
import Foundation
import Testing

/// Spec 000, Flow 3: "User is in close leaderboard battle for #1 position", on a Monday (day 1 of the
/// week), in Paris. The story's "yesterday's data" cannot be claimed on Monday morning (the claim window
/// closes at 00:30), so the morning claims are Monday's own early syncs. Its "You dropped to #2" for a
/// one-place drop contradicts F5's table ("Leaderboard Position Change: rank changes ±3"): read as two
/// types, `leaderboard_passed` to whoever is passed (at once, named) and `leaderboard_change` for a climb of
/// three places or more.
struct Spec000Flow3Tests {
    static let zone = "Europe/Paris"

    @Test(arguments: Backend.available)
    func flow3_theMondayBattleForFirstPlace_aMemberPassedIsToldAtOnceThoughTheTableSaysAChangeOf3(_ backend: Backend)
        async throws
    {
        try await withTestApp(backend) { app async throws in
            let world = World(app, zone: Self.zone)
            world.start(at: "2026-03-02", "07:00")
            let sam = try await Member.onboarded("sam@example.com", named: "Sam", in: Self.zone, app: app)
            let sarah = try await Member.onboarded("sarah@example.com", named: "Sarah", in: Self.zone, app: app)
            let circle = try await app.request(
                .post,
                "/api/fitcircles",
                token: try await sarah.token,
                json: ["name": "Work Warriors", "metric": "steps", "privacy": "public"]
            )
            .jsonObject()
            let id = try #require(circle["id"] as? String)
            try await world.run(until: "2026-03-02", "07:01")
            #expect(
                try await app.request(
                    .post,
                    "/api/fitcircles/join",
                    token: try await sam.token,
                    json: ["code": circle["joinCode"]!]
                ).status == .ok
            )

            func claim(_ member: Member, _ steps: Int) async throws -> [String: Any] {
                try await member.sync(steps: steps, "\(member.email)-\(steps)")
                let response = try await app.request(
                    .post,
                    "/api/fitcircles/\(id)/submit",
                    token: try await member.token
                )
                #expect(response.status == .created || response.status == .ok, "\(response.text)")
                return try response.jsonObject()
            }
            func rows(_ period: String, as member: Member) async throws -> [[String: Any]] {
                try await app.json("/api/fitcircles/\(id)/leaderboard?period=\(period)", token: try await member.token)[
                    "rows"
                ] as? [[String: Any]] ?? []
            }
            func feed(as member: Member) async throws -> [[String: Any]] {
                try await app.json("/api/fitcircles/\(id)/feed", token: try await member.token)["items"]
                    as? [[String: Any]] ?? []
            }

            // Early syncs: Sarah 1,200, Sam 1,000. "Currently #2, 200 steps behind #1 (Sarah)".
            try await world.run(until: "2026-03-02", "07:15")
            _ = try await claim(sarah, 1_200)
            try await world.run(until: "2026-03-02", "07:30")
            #expect(try await claim(sam, 1_000)["rankAfter"] as? Int == 2)
            var weekly = try await rows("weekly", as: sam)
            #expect(weekly.map { $0["displayName"] as? String } == ["Sarah", "Sam"])
            #expect(weekly.map { $0["value"] as? Double } == [1_200, 1_000])
            #expect(weekly.map { $0["isCaller"] as? Bool } == [false, true])

            // "User submits 10,234 steps. Leaderboard updates: User moves to #1. Push notification to Sarah."
            try await world.run(until: "2026-03-02", "08:30")
            let morning = try await claim(sam, 10_234)
            #expect(morning["rankAfter"] as? Int == 1 && morning["rankChange"] as? Int == 1)
            weekly = try await rows("weekly", as: sarah)
            #expect(weekly.map { $0["displayName"] as? String } == ["Sam", "Sarah"])
            try await world.run(until: "2026-03-02", "08:45")
            let dropped = try await app.notifications("leaderboard_passed", token: try await sarah.token)
            #expect(dropped.count == 1, "\(dropped)")
            #expect((dropped.first?.body)?.contains("Sam") == true, "\(dropped)")

            // "Sarah submits 11,000 steps → Retakes #1. Push notification to user. User checks: 766 steps behind."
            try await world.run(until: "2026-03-02", "14:00")
            let afternoon = try await claim(sarah, 11_000)
            #expect(afternoon["rankAfter"] as? Int == 1 && afternoon["rankChange"] as? Int == 1)
            try await world.run(until: "2026-03-02", "14:15")
            #expect(
                (try await app.notifications("leaderboard_passed", token: try await sam.token).first?.body)?
                    .contains("Sarah") == true
            )
            let daily = try await rows("daily", as: sam)
            #expect(daily.map { $0["displayName"] as? String } == ["Sarah", "Sam"])
            #expect((daily[0]["value"] as? Double ?? 0) - (daily[1]["value"] as? Double ?? 0) == 766)

            // "User submits 11,800 steps → Reclaims #1. Activity feed: '🏃 [User] submitted 11,800 steps—now #1!'"
            try await world.run(until: "2026-03-02", "19:00")
            let evening = try await claim(sam, 11_800)
            #expect(evening["rankAfter"] as? Int == 1 && evening["rankChange"] as? Int == 1)
            let items = try await feed(as: sarah)
            #expect(
                items.compactMap { $0["text"] as? String } == [
                    "🏃 Sam submitted 11,800 steps—now #1!", "🏃 Sarah submitted 11,000 steps—now #1!",
                    "🏃 Sam submitted 10,234 steps—now #1!",
                    "🏃 Sam submitted 1,000 steps", "🏃 Sarah submitted 1,200 steps—now #1!", "👋 Sam joined the circle",
                ]
            )

            // "Sarah sends encouragement; user responds": once per item and sender, each told to the item's member.
            let samsItem = try #require(items[0]["id"] as? String)
            let sarahsItem = try #require(items[1]["id"] as? String)
            let cheer = try await app.request(
                .post,
                "/api/fitcircles/\(id)/feed/\(samsItem)/encourage",
                token: try await sarah.token,
                json: ["message": "🔥 Great hustle today!"]
            )
            #expect(cheer.status == .created, "\(cheer.text)")
            let twice = try await app.request(
                .post,
                "/api/fitcircles/\(id)/feed/\(samsItem)/encourage",
                token: try await sarah.token,
                json: [:]
            )
            #expect(twice.status == .ok)
            #expect(try twice.jsonObject()["encouragements"] as? Int == 1)
            let reply = try await app.request(
                .post,
                "/api/fitcircles/\(id)/feed/\(sarahsItem)/encourage",
                token: try await sam.token,
                json: ["message": "💪 You too—see you at the top tomorrow!"]
            )
            #expect(reply.status == .created)
            #expect(
                try await app.request(
                    .post,
                    "/api/fitcircles/\(id)/feed/\(samsItem)/encourage",
                    token: try await sam.token,
                    json: [:]
                ).status == .conflict
            )
            try await world.run(until: "2026-03-02", "19:15")
            #expect(
                (try await app.notifications("social_engagement", token: try await sam.token).first?.body)?
                    .contains("🔥 Great hustle today!") == true
            )
            #expect(
                (try await app.notifications("social_engagement", token: try await sarah.token).first?.body)?.contains(
                    "💪 You too"
                ) == true
            )

            // Tuesday: the week's board shows the close race, Monday being day 1; Monday's daily board closed
            // after midnight with Sam first, and Tuesday's arrows measure against it.
            try await world.run(until: "2026-03-03", "09:00")
            let week = try await app.json("/api/fitcircles/\(id)/leaderboard?period=weekly", token: try await sam.token)
            #expect(week["periodStart"] as? String == "2026-03-02")
            #expect((week["rows"] as? [[String: Any]])?.map { $0["value"] as? Double } == [11_800, 11_000])
            let history = try await app.json(
                "/api/fitcircles/\(id)/leaderboard/history?period=daily",
                token: try await sam.token
            )
            let closed = try #require((history["items"] as? [[String: Any]])?.first)
            #expect(closed["periodStart"] as? String == "2026-03-02")
            #expect((closed["rows"] as? [[String: Any]])?.map { $0["displayName"] as? String } == ["Sam", "Sarah"])
            // The daily board is the top 10 and the caller's place: nobody has claimed yet, so Sam alone, unranked.
            let tuesday = try await rows("daily", as: sam)
            #expect(tuesday.map { $0["rank"] as? Int } == [nil] && tuesday.first?["isCaller"] as? Bool == true)
            _ = try await claim(sarah, 900)
            let moved = try await rows("daily", as: sam)
            #expect(moved.map { $0["displayName"] as? String } == ["Sarah", "Sam"])
            #expect((moved[0]["movement"] as? [String: Any])?["direction"] as? String == "up")
            #expect((moved[0]["movement"] as? [String: Any])?["previousRank"] as? Int == 2)
            #expect((moved[1]["movement"] as? [String: Any])?["direction"] as? String == "none")
        }
    }
}
