import FitCircleCore
import FitCircleTesting
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// A person's sensitive fields appear only where their visibility settings allow (the access policy's
/// `ProfileAccess`), wherever the person appears.
struct PrivacyTests {
    @Test(arguments: Backend.available)
    func circleMatesSeeAWeightLossMembersWeightsOnlyWhenShared(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let (ana, bo) = (try await app.person("ana@example.com"), try await app.person("bo@example.com"))
            let circle = try await app.createCircle(
                by: ana,
                ["name": "Lighter", "metric": "weight_loss_pct", "privacy": "public", "targetWeightKg": 58]
            )
            let id = circle.id
            let code = try #require(circle.joinCode)
            #expect(
                try await app.request(
                    .post,
                    "/api/fitcircles/join",
                    token: try await bo.token(app),
                    json: ["code": code, "targetWeightKg": 60]
                ).status == .ok
            )
            func weights(seenBy person: TestPerson) async throws -> [String: [Double?]] {
                let rows =
                    try await app.request(.get, "/api/fitcircles/\(id)/members", token: try await person.token(app))
                    .jsonObject()["items"] as? [[String: Any]] ?? []
                return Dictionary(
                    uniqueKeysWithValues: rows.map {
                        ($0["userId"] as! String, [$0["startingWeightKg"] as? Double, $0["targetWeightKg"] as? Double])
                    }
                )
            }
            #expect(try await weights(seenBy: bo) == [ana.id: [nil, nil], bo.id: [62.5, 60]])
            #expect(try await weights(seenBy: ana) == [ana.id: [62.5, 58], bo.id: [nil, nil]])
            // Promoting Bo answers his row as Ana may see it.
            let promoted = try await app.request(
                .put,
                "/api/fitcircles/\(id)/members/\(bo.id)",
                token: try await ana.token(app),
                json: ["role": "admin"]
            )
            #expect(try promoted.jsonObject()["startingWeightKg"] == nil)

            var form = TestApp.validProfile()
            form["visibility"] = ["age": "friends", "weight": "everyone", "height": "friends"]
            #expect(
                try await app.request(.put, "/api/user/profile", token: try await ana.token(app), json: form).status
                    == .ok
            )
            #expect(try await weights(seenBy: bo) == [ana.id: [62.5, 58], bo.id: [62.5, 60]])
        }
    }
}
