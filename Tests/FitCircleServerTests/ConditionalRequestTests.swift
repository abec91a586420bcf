import FitCircleAPI
import FitCircleTesting
import Foundation
import HTTPTypes
import Testing

@testable import FitCircleServer

/// Conditional reads (issue 42): an answer an app polls carries an `ETag` of its bytes as the caller gets
/// them; asked again with it, an unchanged answer is a 304 without a body. A stale, forged or someone
/// else's tag is answered in full, and two viewers who may see different things get different tags.
struct ConditionalRequestTests {
    typealias Person = TestPerson

    /// A GET's status, `ETag` and body, `If-None-Match` sent when given.
    static func get(_ app: TestApp, _ path: String, as person: Person?, ifNoneMatch: String? = nil) async throws -> (
        status: Int, tag: String?, body: String
    ) {
        var headers: HTTPFields = [:]
        if let ifNoneMatch { headers[.ifNoneMatch] = ifNoneMatch }
        var token: String?
        if let person { token = try await person.token(app) }
        let response = try await app.request(.get, path, token: token, headers: headers)
        if response.status == .ok || response.status == .notModified {
            #expect(response.headers[.cacheControl] == "private, no-cache", "\(path)")
        }
        return (Int(response.status.code), response.headers[.eTag], response.text)
    }

    @Test(arguments: Backend.available)
    func anUnchangedAnswerIsA304_aChangedOneOrAnotherViewersTagIsAnsweredInFull(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let (ana, bo, cy) = (
                try await app.person(named: "Ana"), try await app.person(named: "Bo"),
                try await app.person(named: "Cy")
            )
            try await app.befriend(ana, bo)
            try await app.recordWorkout("run", by: bo, minutesAgo: 10)
            try await app.runJobs()

            // The feed: the same answer twice is a 304 with the same tag and no body, whichever way the tag is sent.
            let feed = try await Self.get(app, "/api/feed", as: ana)
            let tag = try #require(feed.tag)
            #expect(feed.status == 200 && tag.hasPrefix("\"") && tag.hasSuffix("\""))
            for sent in [tag, "W/\(tag)", "\"other\", \(tag)", "*"] {
                let again = try await Self.get(app, "/api/feed", as: ana, ifNoneMatch: sent)
                #expect(again.status == 304 && again.tag == tag && again.body.isEmpty, "\(sent)")
            }
            // A forged or malformed tag is answered in full.
            for sent in ["\"forged\"", "not a tag", String(repeating: "\"x\",", count: 3_000)] {
                #expect(try await Self.get(app, "/api/feed", as: ana, ifNoneMatch: sent).status == 200)
            }
            // A new workout changes the answer: the old tag brings it in full, with a new tag.
            try await app.recordWorkout("walk", by: bo, type: .walking, minutesAgo: 5)
            try await app.runJobs()
            let changed = try await Self.get(app, "/api/feed", as: ana, ifNoneMatch: tag)
            #expect(changed.status == 200 && changed.tag != tag && changed.body.contains("walking"))

            // A person's page: a friend and a stranger may see different things, so their tags differ, and
            // the stranger holding the friend's tag gets the page in full.
            let asFriend = try await Self.get(app, "/api/users/\(bo.id)", as: ana)
            let asStranger = try await Self.get(app, "/api/users/\(bo.id)", as: cy)
            #expect(asFriend.status == 200 && asStranger.status == 200 && asFriend.tag != asStranger.tag)
            #expect(try await Self.get(app, "/api/users/\(bo.id)", as: cy, ifNoneMatch: asFriend.tag).status == 200)
            #expect(try await Self.get(app, "/api/users/\(bo.id)", as: cy, ifNoneMatch: asStranger.tag).status == 304)

            // Goals and the configuration too; an error is never a 304.
            let goals = try await Self.get(app, "/api/goals/daily", as: ana)
            #expect(try await Self.get(app, "/api/goals/daily", as: ana, ifNoneMatch: goals.tag).status == 304)
            let config = try await Self.get(app, "/api/config", as: ana)
            #expect(try await Self.get(app, "/api/config", as: ana, ifNoneMatch: config.tag).status == 304)
            #expect(try await Self.get(app, "/api/users/nobody", as: ana, ifNoneMatch: "*").status == 404)
            // Other reads carry no tag.
            #expect(try await app.request(.get, "/api/friends", token: try await ana.token(app)).headers[.eTag] == nil)
        }
    }

    @Test(arguments: Backend.available)
    func aBoardIsA304UntilAClaimMovesIt(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let ana = try await app.person(named: "Ana")
            let circle = try await app.createCircle(by: ana, ["name": "Walkers", "metric": "steps"]).id
            _ = try await app.claim(4_000, in: circle, as: ana)
            let path = "/api/fitcircles/\(circle)/leaderboard?period=daily"
            let board = try await app.request(.get, path, token: try await ana.token(app))
            let tag = try #require(board.headers[.eTag])
            let unchanged = try await app.request(
                .get,
                path,
                token: try await ana.token(app),
                headers: [.ifNoneMatch: tag]
            )
            #expect(unchanged.status == .notModified && unchanged.body.readableBytes == 0)
            _ = try await app.claim(6_000, in: circle, as: ana)
            let moved = try await app.request(.get, path, token: try await ana.token(app), headers: [.ifNoneMatch: tag])
            #expect(moved.status == .ok && moved.headers[.eTag] != tag)
        }
    }

    @Test(arguments: Backend.available)
    func theWebAppsAssetsAreTaggedToo(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let asset = try await app.request(.get, "/assets/js/api.js")
            let tag = try #require(asset.headers[.eTag])
            #expect(asset.status == .ok && asset.headers[.cacheControl] == "no-cache")
            let again = try await app.request(.get, "/assets/js/api.js", headers: [.ifNoneMatch: tag])
            #expect(again.status == .notModified && again.body.readableBytes == 0 && again.headers[.eTag] == tag)
            #expect(
                try await app.request(.get, "/assets/js/api.js", headers: [.ifNoneMatch: "\"stale\""]).status == .ok
            )
        }
    }

    /// The operations the middleware tags (read by `RouteTable`) are those `openapi.yaml` declares a 304 for:
    /// the reads an app polls.
    @Test func theTaggedOperationsAreTheDocumentsOwn() throws {
        var declared: Set<String> = []
        var operation: String?
        for line in try OpenAPIDocument.yaml().split(separator: "\n", omittingEmptySubsequences: false) {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("operationId:") {
                operation = String(text.dropFirst("operationId:".count)).trimmingCharacters(in: .whitespaces)
            }
            if text.hasPrefix("'304':"), let operation { declared.insert(operation) }
        }
        #expect(declared == (try RouteTable(openAPIDocument: OpenAPIDocument.yaml())).conditionalOperationIDs)
        #expect(
            declared == [
                "getFriendFeed", "getFitCircleLeaderboard", "getCompetitionLeaderboard", "getUserProfile",
                "getDailyGoals", "getWeeklyGoals", "getConfig",
            ]
        )
    }
}
