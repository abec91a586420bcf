import AsyncHTTPClient
import FitCircleClient
import FitCircleTesting
import Foundation
import Testing

/// Two `fitcircle serve` processes on one PostgreSQL database: a claim made on one node reaches the
/// circle's live streams on both within a second, and the other node's rank index follows it (LISTEN/NOTIFY).
@Suite(.serialized)
struct TwoNodeTests {
    /// Reads with `read` until `done` holds of what it answers (for at most 5 s), and expects that within
    /// `bound`: how soon the other node showed `what`.
    static func until<Value>(
        _ what: String,
        within bound: Duration = ServerProcess.notifyBound,
        read: () async throws -> Value,
        _ done: (Value) -> Bool
    ) async throws {
        let start = ContinuousClock.now
        var value = try await read()
        while !done(value), ContinuousClock.now - start < .seconds(5) {
            try await Task.sleep(for: .milliseconds(5))
            value = try await read()
        }
        let took = ContinuousClock.now - start
        #expect(took < bound, "node B showed \(what) after \(took): \(value)")
    }

    @Test(arguments: Backend.available.filter { $0 == .postgres })
    func signInsFromOneAddressAreCountedByBothNodesTogether(_ backend: Backend) async throws {
        try await ServerProcess.withTwoNodes(backend, environment: ["FITCIRCLE_LIMITS_SIGN_INS": "4"]) {
            nodeA,
            nodeB,
            _ in
            var statuses: [Int] = []
            for (index, node) in [nodeA, nodeB, nodeA, nodeB, nodeA, nodeB].enumerated() {
                statuses.append(try await node.post("/api/auth/dev", json: ["email": "try\(index)@example.com"]).0)
            }
            // Four a minute from this address, wherever they land: each node alone would have allowed six.
            #expect(statuses == [200, 200, 200, 200, 429, 429])
        }
    }

    @Test(arguments: Backend.available.filter { $0 == .postgres })
    func aSendOnOneNodeReachesAnInboxStreamOnTheOtherWithinASecond(_ backend: Backend) async throws {
        try await ServerProcess.withTwoNodes(backend) { nodeA, nodeB, database in
            let ops = try await nodeA.member("ops@example.com")
            // The binaries run on the real clock: Ana lives where it is day now, outside quiet hours.
            let daytime = try #require(
                [
                    "Pacific/Honolulu", "America/Los_Angeles", "America/New_York", "Europe/London", "Europe/Athens",
                    "Asia/Dubai", "Asia/Bangkok", "Asia/Tokyo", "Pacific/Auckland",
                ]
                .first { zone in
                    (11..<17).contains(
                        Calendar.current.dateComponents(in: TimeZone(identifier: zone)!, from: Date()).hour!
                    )
                }
            )
            let ana = try await nodeB.member("ana@example.com", timeZone: daytime)
            #expect(
                try await ServerProcess.run([
                    "operator", "grant", "ops@example.com", "--database-url", database, "--profiles-dir",
                    profilesDirectory.path,
                ])
            )
            // Ana's inbox is open on node B; the operator sends on node A.
            let (listening, ready) = AsyncStream.makeStream(of: Void.self)
            async let onB = nodeB.arrivals(
                of: "notification",
                at: "/api/notifications/stream?seconds=6",
                token: ana.token,
                ready: ready,
                readyEvent: "unread"
            )
            for await _ in listening { break }
            let sent = try await nodeA.post(
                "/api/notifications/send",
                token: ops.token,
                json: [
                    "userId": ana.id, "type": "daily_checkin_reminder", "data": ["streak": "3"],
                    "dedupeKey": "two-nodes",
                ]
            )
            #expect(sent.0 == 200)
            let acknowledged = ContinuousClock.now
            let first = try #require(try await onB.first, "node B's inbox stream heard nothing")
            // Woken by NOTIFY, not by its 30 s look-up.
            #expect(
                first - acknowledged < ServerProcess.notifyBound,
                "node B heard the send after \(first - acknowledged)"
            )
        }
    }

    @Test(arguments: Backend.available.filter { $0 == .postgres })
    func aClaimOnOneNodeReachesStreamsOnBothWithinASecond(_ backend: Backend) async throws {
        try await ServerProcess.withTwoNodes(backend) { nodeA, nodeB, _ in
            let ana = try await nodeA.member("ana@example.com")
            let bo = try await nodeB.member("bo@example.com")
            let created = try await nodeA.post(
                "/api/fitcircles",
                token: ana.token,
                json: ["name": "Two nodes", "metric": "steps", "privacy": "public"]
            )
            let circle = try created.1.decoded(as: Components.Schemas.FitCircle.self)
            let (id, code) = (circle.id, try #require(circle.joinCode))
            #expect(try await nodeB.post("/api/fitcircles/join", token: bo.token, json: ["code": code]).0 == 200)

            // Node B loads the weekly board into its index before the claim.
            var loaded = false
            for _ in 0..<100 where !loaded {
                loaded = try await nodeB.boardSource(id, token: bo.token) == "index"
                if !loaded { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(loaded)

            // One stream on each node; then Ana claims her steps on node A.
            let (listening, ready) = AsyncStream.makeStream(of: Void.self)
            async let onA = nodeA.arrivals(
                of: "rank",
                at: "/api/fitcircles/\(id)/stream?seconds=10",
                token: ana.token,
                ready: ready
            )
            async let onB = nodeB.arrivals(
                of: "rank",
                at: "/api/fitcircles/\(id)/stream?seconds=10",
                token: bo.token,
                ready: ready
            )
            var streams = 0
            for await _ in listening {
                streams += 1
                if streams == 2 { break }
            }
            let sync: [String: Any] = [
                "clientEventId": "sync-1", "type": "steps", "source": "healthkit",
                "occurredAt": ISO8601DateFormatter().string(from: Date()), "steps": 9_000,
            ]
            #expect(try await nodeA.post("/api/activities", token: ana.token, json: sync).0 == 201)
            #expect(try await nodeA.post("/api/fitcircles/\(id)/submit", token: ana.token, json: [:]).0 == 201)
            // From the moment the claim was acknowledged (the events leave at its commit, just before).
            let claimed = ContinuousClock.now
            let (seenOnA, seenOnB) = try await (onA, onB)
            for (node, seen) in [("A", seenOnA), ("B", seenOnB)] {
                let first = try #require(seen.first, "node \(node)'s stream heard nothing")
                #expect(
                    first - claimed < ServerProcess.notifyBound,
                    "node \(node) heard the claim after \(first - claimed)"
                )
            }

            // Node B's index followed: it still answers from memory, with Ana's claim on the board.
            let (_, board) = try await nodeB.get("/api/fitcircles/\(id)/leaderboard", token: bo.token)
            let rows = try board.decoded(as: Components.Schemas.Leaderboard.self).rows
            #expect(rows.first?.userId == ana.id && rows.first?.value == 9_000)
            #expect(try await nodeB.boardSource(id, token: bo.token) == "index")
        }
    }
}

extension TwoNodeTests {
    /// Each node authenticates from memory; a change of an account or a session on one node reaches the
    /// other's memory within a second (NOTIFY in the transaction that made it).
    @Test(arguments: Backend.available.filter { $0 == .postgres })
    func aProfileChangeAndASignOutOnOneNodeReachTheOtherWithinASecond(_ backend: Backend) async throws {
        try await ServerProcess.withTwoNodes(backend) { nodeA, nodeB, _ in
            let ana = try await nodeA.member("ana@example.com")
            let profile = try await nodeB.get("/api/user/profile", token: ana.token).1
            #expect(try profile.decoded(as: Components.Schemas.Profile.self).displayName == "Ana")

            /// How long until a profile read on node B satisfies `done` (at most 5 s).
            func untilNodeB(_ done: (Int, Components.Schemas.Profile?) -> Bool) async throws -> Duration {
                let start = ContinuousClock.now
                while ContinuousClock.now - start < .seconds(5) {
                    let (status, body) = try await nodeB.get("/api/user/profile", token: ana.token)
                    if done(status, try? body.decoded()) { break }
                    try await Task.sleep(for: .milliseconds(5))
                }
                return ContinuousClock.now - start
            }
            var renaming = TestApp.validProfile()
            renaming["displayName"] = "Ana B."
            #expect(try await nodeA.post("/api/user/profile", token: ana.token, json: renaming, method: .PUT).0 == 200)
            let renamed = try await untilNodeB { $1?.displayName == "Ana B." }
            #expect(renamed < ServerProcess.notifyBound, "node B saw the new name after \(renamed)")

            #expect(try await nodeA.post("/api/auth/signout", token: ana.token, json: [:]).0 == 204)
            let signedOut = try await untilNodeB { status, _ in status == 401 }
            #expect(signedOut < ServerProcess.notifyBound, "node B refused the token after \(signedOut)")
        }
    }
}

extension TwoNodeTests {
    /// Every per-node cache a warm board read uses (the index, the people, their privacy, the blockers) stays
    /// exact across nodes: a claim, a rename, a name hidden from non-friends and a block made on node A show on
    /// node B's board, which answers from memory (`HotReadMiddleware`), within the bound.
    @Test(arguments: Backend.available.filter { $0 == .postgres })
    func aClaimANameAPrivacySettingAndABlockOnOneNodeShowOnTheOthersBoard(_ backend: Backend) async throws {
        try await ServerProcess.withTwoNodes(backend) { nodeA, nodeB, _ in
            let ana = try await nodeA.member("ana@example.com")
            let bo = try await nodeB.member("bo@example.com")
            let cy = try await nodeA.member("cy@example.com")
            for (person, name) in [(ana, "Ana"), (bo, "Bo"), (cy, "Cy")] {
                var named = TestApp.validProfile()
                named["displayName"] = name
                #expect(
                    try await nodeA.post("/api/user/profile", token: person.token, json: named, method: .PUT).0 == 200
                )
            }
            let created = try await nodeA.post(
                "/api/fitcircles",
                token: ana.token,
                json: ["name": "Caches", "metric": "steps", "privacy": "public"]
            )
            let circle = try created.1.decoded(as: Components.Schemas.FitCircle.self)
            let (id, code) = (circle.id, try #require(circle.joinCode))
            for person in [bo, cy] {
                #expect(
                    try await nodeA.post("/api/fitcircles/join", token: person.token, json: ["code": code]).0 == 200
                )
            }
            for (index, (person, steps)) in [(ana, 5_000), (cy, 3_000)].enumerated() {
                let sync: [String: Any] = [
                    "clientEventId": "sync-\(index)", "type": "steps", "source": "healthkit",
                    "occurredAt": ISO8601DateFormatter().string(from: Date()), "steps": steps,
                ]
                #expect(try await nodeA.post("/api/activities", token: person.token, json: sync).0 == 201)
                #expect(try await nodeA.post("/api/fitcircles/\(id)/submit", token: person.token, json: [:]).0 == 201)
            }
            var loaded = false
            for _ in 0..<100 where !loaded {
                loaded = try await nodeB.boardSource(id, token: bo.token) == "index"
                if !loaded { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(loaded)

            /// Bo's board on node B, as (name, value) rows.
            func boardOnB() async throws -> [(String, Double?)] {
                let (_, body) = try await nodeB.get("/api/fitcircles/\(id)/leaderboard", token: bo.token)
                return try body.decoded(as: Components.Schemas.Leaderboard.self).rows.map { ($0.displayName, $0.value) }
            }
            func untilNodeB(_ what: String, _ done: ([(String, Double?)]) -> Bool) async throws {
                try await Self.until(what, read: boardOnB, done)
            }
            let names = { (rows: [(String, Double?)]) in rows.map(\.0) }
            #expect(try await boardOnB().map(\.0) == ["Ana", "Cy", "Bo"])

            let sync: [String: Any] = [
                "clientEventId": "sync-more", "type": "steps", "source": "healthkit",
                "occurredAt": ISO8601DateFormatter().string(from: Date()), "steps": 7_000,
            ]
            #expect(try await nodeA.post("/api/activities", token: cy.token, json: sync).0 == 201)
            #expect(try await nodeA.post("/api/fitcircles/\(id)/submit", token: cy.token, json: [:]).0 == 200)
            try await untilNodeB("Cy's claim") { $0.first?.0 == "Cy" && $0.first?.1 == 7_000 }

            var profile = TestApp.validProfile()
            profile["displayName"] = "Ana B."
            #expect(try await nodeA.post("/api/user/profile", token: ana.token, json: profile, method: .PUT).0 == 200)
            try await untilNodeB("Ana's new name") { names($0).contains("Ana B.") }

            profile["visibility"] = [
                "age": "friends", "weight": "only_me", "height": "friends", "boardName": "friends",
            ]
            #expect(try await nodeA.post("/api/user/profile", token: ana.token, json: profile, method: .PUT).0 == 200)
            try await untilNodeB("Ana's name hidden from non-friends") {
                !names($0).contains("Ana B.") && names($0).contains("A member")
            }

            #expect(try await nodeA.post("/api/friends/blocks", token: cy.token, json: ["userId": bo.id]).0 == 204)
            try await untilNodeB("Cy's block") { names($0).filter { $0 == "A member" }.count == 2 }
        }
    }
}

extension TwoNodeTests {
    /// A reader's first page of the feed is kept on each node (`FeedRead`); what changes it on the other node —
    /// a friend's new workout, a reaction, a rename, a workout made private, a block — shows on this one's
    /// next reads within a second (NOTIFY), never the page kept before it.
    @Test(arguments: Backend.available.filter { $0 == .postgres })
    func aWorkoutAReactionANameAVisibilityAndABlockOnOneNodeShowInTheOthersFeed(_ backend: Backend) async throws {
        try await ServerProcess.withTwoNodes(backend) { nodeA, nodeB, _ in
            let ana = try await nodeA.member("ana@example.com")
            let bo = try await nodeB.member("bo@example.com")
            let cy = try await nodeA.member("cy@example.com")
            for (one, other) in [(ana, bo), (ana, cy)] {
                #expect(
                    try await nodeA.post("/api/friends/request", token: one.token, json: ["userId": other.id]).0 == 200
                )
                #expect(
                    try await nodeB.post("/api/friends/accept", token: other.token, json: ["userId": one.id]).0 == 204
                )
            }
            func workout(_ id: String, minutesAgo: Double) async throws -> String {
                let body: [String: Any] = [
                    "clientEventId": id, "type": "workout", "source": "app",
                    "workout": ["type": "running", "durationSeconds": 1_500],
                    "occurredAt": ISO8601DateFormatter().string(from: Date().addingTimeInterval(-minutesAgo * 60)),
                ]
                let (status, answer) = try await nodeA.post("/api/activities", token: ana.token, json: body)
                #expect(status == 201)
                return try answer.decoded(as: Components.Schemas.Activity.self).id
            }
            let run = try await workout("run", minutesAgo: 30)
            /// Bo's first page on node B.
            func feedOnB() async throws -> [Components.Schemas.FriendFeedItem] {
                try await nodeB.get("/api/feed", token: bo.token).1.decoded(as: Components.Schemas.FriendFeedPage.self)
                    .items
            }
            func untilNodeB(
                _ what: String,
                within bound: Duration = ServerProcess.notifyBound,
                _ done: ([Components.Schemas.FriendFeedItem]) -> Bool
            ) async throws {
                try await Self.until(what, within: bound, read: feedOnB, done)
            }
            try await untilNodeB("Ana's run, fanned out by a job") { $0.map(\.activityId) == [run] }

            let ride = try await workout("ride", minutesAgo: 5)
            try await untilNodeB("Ana's ride, fanned out by a job", within: .seconds(5)) {
                $0.first?.activityId == ride
            }

            #expect(
                try await nodeA.post("/api/activities/\(run)/reactions", token: cy.token, json: ["reaction": "👍"]).0
                    == 200
            )
            try await untilNodeB("Cy's reaction") {
                $0.last?.reactions.counts.additionalProperties == ["👍": 1]
            }

            var profile = TestApp.validProfile()
            profile["displayName"] = "Ana B."
            #expect(try await nodeA.post("/api/user/profile", token: ana.token, json: profile, method: .PUT).0 == 200)
            try await untilNodeB("Ana's new name") { $0.allSatisfy { $0.displayName == "Ana B." } }

            #expect(
                try await nodeA.post(
                    "/api/activities/\(ride)/visibility",
                    token: ana.token,
                    json: ["visibility": "private"],
                    method: .PUT
                ).0 == 200
            )
            try await untilNodeB("Ana's ride made private") { $0.map(\.activityId) == [run] }

            #expect(try await nodeA.post("/api/friends/blocks", token: ana.token, json: ["userId": bo.id]).0 == 204)
            try await untilNodeB("Ana's block") { $0.isEmpty }
        }
    }
}

extension TwoNodeTests {
    /// A challenge's board is kept on each node (`ChallengeBoardRead`, the challenge and its participants in
    /// the node's memory): someone joining on the other node shows on this one's board within a second.
    @Test(arguments: Backend.available.filter { $0 == .postgres })
    func someoneJoiningAChallengeOnOneNodeShowsOnTheOthersBoard(_ backend: Backend) async throws {
        try await ServerProcess.withTwoNodes(backend) { nodeA, nodeB, _ in
            let ana = try await nodeA.member("ana@example.com")
            let bo = try await nodeB.member("bo@example.com")
            let created = try await nodeA.post(
                "/api/competitions",
                token: ana.token,
                json: [
                    "name": "Most km", "type": "distance", "goal": "most", "durationDays": 7, "visibility": "public",
                ]
            )
            let id = try created.1.decoded(as: Components.Schemas.Competition.self).id
            func boardOnB() async throws -> (count: Int?, rows: Int) {
                let board = try await nodeB.get("/api/competitions/\(id)/leaderboard", token: ana.token).1
                    .decoded(as: Components.Schemas.CompetitionLeaderboard.self)
                return (board.competition.participantCount, board.rows.count)
            }
            #expect(try await boardOnB().count == 1)
            #expect(try await boardOnB().count == 1)  // kept
            #expect(try await nodeA.post("/api/competitions/\(id)/join", token: bo.token, json: [:]).0 == 200)
            try await Self.until("Bo joining", read: boardOnB) { $0.count == 2 && $0.rows == 2 }
        }
    }
}
