import FitCircleAPI
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
    typealias Experiment = Components.Schemas.Experiment

    /// `GET /api/admin/experiments` as `token` reads it.
    static func experiments(_ app: TestApp, token: String) async throws -> [Experiment] {
        try await app.request(.get, "/api/admin/experiments", token: token)
            .decoded(as: Operations.ListExperiments.Output.Ok.Body.JsonPayload.self).experiments
    }

    /// The variant of each experiment `token`'s person is in, as `GET /api/config` tells their app.
    static func variants(_ app: TestApp, token: String) async throws -> [String: String] {
        let config = try await app.request(.get, "/api/config", token: token).decoded(
            as: Components.Schemas.Config.self
        )
        return config.experiments?.additionalProperties ?? [:]
    }

    /// Their freezes left, from `GET /api/streaks/current`.
    static func freezesLeft(_ app: TestApp, token: String) async throws -> Int {
        try await app.request(.get, "/api/streaks/current", token: token)
            .decoded(as: Components.Schemas.StreakSummary.self).freezesLeft
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
                Set(try refused.problem().fields) == [
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
            #expect(try one.problem().fields == ["variants"])
            #expect(try await Self.experiments(app, token: token).isEmpty)

            var body = Self.freezes
            body["rolloutPercent"] = 25
            let created = try await app.request(.post, "/api/admin/experiments", token: token, json: body)
            #expect(created.status == .created, "\(created.text)")
            let id = try created.decoded(as: Experiment.self).id
            #expect(try created.decoded(as: Experiment.self).state == .draft)
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
            #expect(try started.decoded(as: Experiment.self).startedAt != nil)
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
            let narrowedFields = try narrowed.problem().fields
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
            let listed = try await Self.experiments(app, token: token)
            #expect(listed.map(\.state) == [.stopped])
            #expect(listed.first?.rolloutPercent == 50)
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
                .decoded(as: Experiment.self).id
            let holdout = try await app.request(
                .post,
                "/api/admin/experiments",
                token: token,
                json: [
                    "name": "holdout",
                    "variants": [["name": "reached"], ["name": "held_out", "engagementNotifications": false]],
                ]
            ).decoded(as: Experiment.self).id
            for id in [freezes, holdout] {
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
                let variants = try await Self.variants(app, token: personal)
                let freeze = try #require(variants["freeze_policy"])
                let held = try #require(variants["holdout"])
                seen["freeze_policy", default: []].insert(freeze)
                seen["holdout", default: []].insert(held)
                let freezesLeft = try await Self.freezesLeft(app, token: personal)
                #expect(freezesLeft == (freeze == "two_a_month" ? 2 : 1), "\(freeze): \(freezesLeft)")
                let sent = try await app.request(
                    .post,
                    "/api/notifications/send",
                    token: token,
                    json: ["userId": person.id, "type": "streak_at_risk", "data": ["streak": "3"]]
                ).decoded(as: Components.Schemas.Notification.self)
                let heldOut = sent.status == .dropped && sent.reason?.contains("held out") == true
                #expect(heldOut == (held == "held_out"), "\(held): \(sent)")
            }
            // 16 people fill both variants of both (a 1-in-32768 chance otherwise).
            #expect(
                seen["freeze_policy"] == ["weekly", "two_a_month"] && seen["holdout"] == ["reached", "held_out"],
                "\(seen)"
            )
            let results = try await app.request(.get, "/api/admin/experiments/\(freezes)/results", token: token)
                .decoded(as: Components.Schemas.ExperimentResults.self)
            #expect(results.variants.map(\.exposed).reduce(0, +) == 16, "\(results)")

            // Paused, everyone is back on the app's rules (one freeze a week) and told of no variant.
            #expect(
                try await app.request(
                    .patch,
                    "/api/admin/experiments/\(freezes)",
                    token: token,
                    json: ["state": "paused"]
                ).status == .ok
            )
            let anyone = try await app.person("p0@example.com")
            #expect(try await Self.freezesLeft(app, token: try await anyone.token(app)) == 1)
            let variants = try await Self.variants(app, token: try await anyone.token(app))
            #expect(variants["freeze_policy"] == nil && variants["holdout"] != nil)
        }
    }
}
