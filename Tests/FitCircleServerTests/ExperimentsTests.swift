import FitCircleCore
import FitCircleEngine
import FitCircleStore
import FitCircleTesting
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// A/B tests of rule profiles through the API (issue 24): their life, their validation, and each person
/// getting their own variant's rules wherever a rule is read.
struct ExperimentsTests {
    static func fields(_ response: TestResponse) throws -> [String] {
        try response.problem().fields
    }

    nonisolated(unsafe) static let freezes: [String: Any] = [
        "name": "freeze_policy", "description": "1 a week against 2 a month",
        "variants": [
            ["name": "weekly", "control": true],
            ["name": "two_a_month", "overlay": ["streaks": ["freezes": ["count": 2, "per": "month"]]]],
        ],
    ]

    @Test(arguments: Backend.available)
    func operatorsRunAnExperimentThroughItsLife(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let ops = try await app.operatorPerson()
            let member = try await app.person("member@example.com")
            let token = try await ops.token(app)
            // Members may not make, list or change experiments.
            #expect(
                try await app.request(
                    .post,
                    "/api/admin/experiments",
                    token: try await member.token(app),
                    json: Self.freezes
                ).status == .forbidden
            )
            #expect(
                try await app.request(.get, "/api/admin/experiments", token: try await member.token(app)).status
                    == .forbidden
            )

            // Each bad field is named, down to the overlay's key; nothing is made.
            let bad: [String: Any] = [
                "name": "Freeze Policy", "rolloutPercent": 0,
                "variants": [
                    ["name": "a", "weight": 0, "overlay": ["streaks": ["basis": "app_open"]]],
                    ["name": "b", "overlay": ["notifications": ["types": ["no_such_type": ["at": "10:00"]]]]],
                    ["name": "c", "overlay": ["streaks": ["checkInGraceDays": 30]]],
                    ["name": "d", "overlay": ["rewards": [:]]],
                ],
            ]
            let refused = try await app.request(.post, "/api/admin/experiments", token: token, json: bad)
            #expect(refused.status == .unprocessableContent, "\(refused.text)")
            #expect(
                Set(try Self.fields(refused)) == [
                    "name", "rolloutPercent", "variants[0].weight", "variants[0].overlay.streaks.basis",
                    "variants[1].overlay.notifications.types.no_such_type",
                    "variants[2].overlay.streaks.checkInGraceDays", "variants[3].overlay.rewards",
                ],
                "\(refused.text)"
            )
            let one = try await app.request(
                .post,
                "/api/admin/experiments",
                token: token,
                json: ["name": "solo", "variants": [["name": "only"]]]
            )
            #expect(try Self.fields(one) == ["variants"])
            let none =
                try await app.request(.get, "/api/admin/experiments", token: token).jsonObject()["experiments"]
                as? [Any]
            #expect(none?.isEmpty == true)

            var body = Self.freezes
            body["rolloutPercent"] = 25
            let created = try await app.request(.post, "/api/admin/experiments", token: token, json: body)
            #expect(created.status == .created, "\(created.text)")
            let id = try #require(try created.jsonObject()["id"] as? String)
            #expect(try created.jsonObject()["state"] as? String == "draft")
            #expect(
                try await app.request(.post, "/api/admin/experiments", token: token, json: body).status == .conflict
            )

            // Start at 25 %, widen to 50 %; narrowing is refused, and a stopped one stays stopped.
            let started = try await app.request(
                .patch,
                "/api/admin/experiments/\(id)",
                token: token,
                json: ["state": "running"]
            )
            #expect(started.status == .ok, "\(started.text)")
            #expect(try started.jsonObject()["startedAt"] is String)
            #expect(
                try await app.request(
                    .patch,
                    "/api/admin/experiments/\(id)",
                    token: token,
                    json: ["rolloutPercent": 50]
                ).status == .ok
            )
            let narrowed = try await app.request(
                .patch,
                "/api/admin/experiments/\(id)",
                token: token,
                json: ["rolloutPercent": 25]
            )
            let narrowedFields = try Self.fields(narrowed)
            #expect(
                narrowed.status == .unprocessableContent && narrowedFields == ["rolloutPercent"],
                "\(narrowed.text)"
            )
            #expect(
                try await app.request(.patch, "/api/admin/experiments/\(id)", token: token, json: ["state": "paused"])
                    .status == .ok
            )
            #expect(
                try await app.request(.patch, "/api/admin/experiments/\(id)", token: token, json: ["state": "stopped"])
                    .status == .ok
            )
            let revived = try await app.request(
                .patch,
                "/api/admin/experiments/\(id)",
                token: token,
                json: ["state": "running"]
            )
            #expect(revived.status == .conflict, "\(revived.text)")
            #expect(
                try await app.request(.patch, "/api/admin/experiments/\(id)", token: token, json: ["state": "draft"])
                    .status == .unprocessableContent
            )
            let listed =
                try await app.request(.get, "/api/admin/experiments", token: token).jsonObject()["experiments"]
                as? [[String: Any]]
            #expect(listed?.map { $0["state"] as? String } == ["stopped"])
            #expect(listed?.first?["rolloutPercent"] as? Int == 50)
            #expect(try await app.request(.get, "/api/admin/experiments/nope", token: token).status == .notFound)
            #expect(
                try await app.request(.get, "/api/admin/experiments/\(id)/results?confidence=2", token: token).status
                    == .unprocessableContent
            )
            #expect(
                try await app.request(.get, "/api/admin/experiments/\(id)/results", token: try await member.token(app))
                    .status == .forbidden
            )
        }
    }

    /// Each person's streak follows their variant's freezes, their notifications their variant's hold-out,
    /// and the app learns their variants from the configuration; paused, everyone is back on the app's rules.
    @Test(arguments: Backend.available)
    func eachPersonGetsTheirOwnVariantsRules(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let ops = try await app.operatorPerson()
            let token = try await ops.token(app)
            let freezes = try await app.request(.post, "/api/admin/experiments", token: token, json: Self.freezes)
                .jsonObject()
            let holdout = try await app.request(
                .post,
                "/api/admin/experiments",
                token: token,
                json: [
                    "name": "holdout",
                    "variants": [["name": "reached"], ["name": "held_out", "engagementNotifications": false]],
                ]
            ).jsonObject()
            for experiment in [freezes, holdout] {
                let id = try #require(experiment["id"] as? String)
                #expect(
                    try await app.request(
                        .patch,
                        "/api/admin/experiments/\(id)",
                        token: token,
                        json: ["state": "running"]
                    ).status == .ok
                )
            }
            var seen: [String: Set<String>] = [:]
            for index in 0..<16 {
                let person = try await app.person("p\(index)@example.com")
                let personal = try await person.token(app)
                let variants =
                    try await app.request(.get, "/api/config", token: personal).jsonObject()["experiments"]
                    as? [String: String] ?? [:]
                let freeze = try #require(variants["freeze_policy"])
                let held = try #require(variants["holdout"])
                seen["freeze_policy", default: []].insert(freeze)
                seen["holdout", default: []].insert(held)
                let streak = try await app.request(.get, "/api/streaks/current", token: personal).jsonObject()
                #expect(streak["freezesLeft"] as? Int == (freeze == "two_a_month" ? 2 : 1), "\(freeze): \(streak)")
                let sent = try await app.request(
                    .post,
                    "/api/notifications/send",
                    token: token,
                    json: ["userId": person.id, "type": "streak_at_risk", "data": ["streak": "3"]]
                ).jsonObject()
                if held == "held_out" {
                    #expect(sent["status"] as? String == "dropped", "\(sent)")
                    #expect((sent["reason"] as? String)?.contains("held out") == true, "\(sent)")
                } else {
                    #expect(
                        sent["status"] as? String != "dropped"
                            || (sent["reason"] as? String)?.contains("held out") != true,
                        "\(sent)"
                    )
                }
            }
            // 16 people fill both variants of both (a 1-in-32768 chance otherwise).
            #expect(
                seen["freeze_policy"] == ["weekly", "two_a_month"] && seen["holdout"] == ["reached", "held_out"],
                "\(seen)"
            )
            let results = try await app.request(
                .get,
                "/api/admin/experiments/\(freezes["id"] as! String)/results",
                token: token
            ).jsonObject()
            let exposed = (results["variants"] as? [[String: Any]])?.compactMap { $0["exposed"] as? Int }.reduce(0, +)
            #expect(exposed == 16, "\(results)")

            // Paused, everyone is back on the app's rules (one freeze a week) and told of no variant.
            #expect(
                try await app.request(
                    .patch,
                    "/api/admin/experiments/\(freezes["id"] as! String)",
                    token: token,
                    json: ["state": "paused"]
                ).status == .ok
            )
            let anyone = try await app.person("p0@example.com")
            #expect(
                try await app.request(.get, "/api/streaks/current", token: try await anyone.token(app)).jsonObject()[
                    "freezesLeft"
                ] as? Int == 1
            )
            let variants =
                try await app.request(.get, "/api/config", token: try await anyone.token(app)).jsonObject()[
                    "experiments"
                ]
                as? [String: String]
            #expect(variants?["freeze_policy"] == nil && variants?["holdout"] != nil)
        }
    }
}
