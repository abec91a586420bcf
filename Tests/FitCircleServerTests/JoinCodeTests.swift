import FitCircleTesting
import Foundation
import Testing

/// A join code is `joinCode` in requests too, the name circles and challenges give it (review I10: a
/// circle's `joinCode` had to be sent back as `code`). `code` still works (deprecated); both at once must
/// agree, else nothing happens and the 422 names `code`.
struct JoinCodeTests {
    @Test(arguments: Backend.available)
    func aJoinCodeIsSentByItsName(_ backend: Backend) async throws {
        try await withTestApp(backend) { app in
            let ana = try await app.person(named: "Ana")
            let bo = try await app.person(named: "Bo")
            let cy = try await app.person(named: "Cy")
            let circle = try await app.createCircle(by: ana, ["name": "Walkers", "metric": "steps"])
            let code = try #require(circle.joinCode)

            let mismatched = try await app.request(
                .post,
                "/api/fitcircles/join",
                token: try await bo.token(app),
                json: ["joinCode": code, "code": "ZZZZZZZZ"]
            )
            let mismatchedFields = try mismatched.problem().fields
            #expect(mismatched.status == .unprocessableContent && mismatchedFields == ["code"])
            for (person, body) in [(bo, ["joinCode": code]), (cy, ["code": code])] {
                let joined = try await app.request(
                    .post,
                    "/api/fitcircles/join",
                    token: try await person.token(app),
                    json: body
                )
                #expect(joined.status == .ok, "\(body): \(joined.text)")
            }
            let nothing = try await app.request(
                .post,
                "/api/fitcircles/join",
                token: try await bo.token(app),
                json: [:]
            )
            let nothingFields = try nothing.problem().fields
            #expect(nothing.status == .unprocessableContent && nothingFields == ["joinCode"])

            // A private challenge: read and joined with its joinCode, by body and by query.
            let made = try await app.request(
                .post,
                "/api/competitions",
                token: try await ana.token(app),
                json: [
                    "name": "Duel", "type": "distance", "durationDays": 7, "visibility": "private",
                    "startsAt": ISO8601DateFormatter().string(from: app.clock.now.addingTimeInterval(86_400)),
                ]
            )
            #expect(made.status == .created, "\(made.text)")
            let challenge = try made.jsonObject()
            let id = try #require(challenge["id"] as? String)
            let challengeCode = try #require(challenge["joinCode"] as? String)
            #expect(
                try await app.request(
                    .get,
                    "/api/competitions/\(id)?joinCode=\(challengeCode)",
                    token: try await bo.token(app)
                )
                .status == .ok
            )
            #expect(
                try await app.request(.get, "/api/competitions/\(id)", token: try await bo.token(app)).status
                    == .notFound
            )
            let mismatchedJoin = try await app.request(
                .post,
                "/api/competitions/\(id)/join",
                token: try await bo.token(app),
                json: ["joinCode": challengeCode, "code": "nope"]
            )
            #expect(mismatchedJoin.status == .unprocessableContent, "\(mismatchedJoin.text)")
            let joined = try await app.request(
                .post,
                "/api/competitions/\(id)/join",
                token: try await bo.token(app),
                json: ["joinCode": challengeCode]
            )
            #expect(joined.status == .ok, "\(joined.text)")
        }
    }
}
