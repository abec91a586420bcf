import FitCircleClient
import FitCircleCore
import FitCircleTesting
import Foundation
import Testing

/// `POST /api/activities/edits`: the latest edit made on any device wins, in place, with the days, the points
/// and the replays following.
struct ActivityEditTests {
    static func run(minutes: Double, calories: Double, at time: String, id: String = "run-1") -> [String: Any] {
        [
            "clientEventId": id, "type": "workout", "source": "app", "occurredAt": time,
            "workout": [
                "type": "running", "durationSeconds": minutes * 60, "distanceMeters": minutes * 150,
                "calories": calories,
            ],
        ]
    }

    static func edit(_ activity: [String: Any], madeAt: String) -> [String: Any] {
        ["modifiedAt": madeAt, "activity": activity]
    }

    @Test(arguments: Backend.available)
    func theLatestEditWinsAndItsDaysAndPointsFollow(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "famefit") { app in
            let token = try await app.onboardedUser()
            // 2026-03-02 13:00 in Paris; the run at 08:00 UTC that day, 30 min and 300 kcal: 30 × 4 + 30 = 150 XP.
            let created = try await app.request(
                .post,
                "/api/activities",
                token: token,
                json: Self.run(minutes: 30, calories: 300, at: "2026-03-02T08:00:00Z")
            )
            #expect(created.status == .created)
            let id = try created.decoded(as: Components.Schemas.Activity.self).id
            typealias Result = Components.Schemas.ActivityEditResult

            func points() async throws -> Int {
                let ledger = try await app.api(token).getPointsLedger(query: .init(limit: 200)).ok.body.json
                return ledger.items.filter { $0.sourceEventId == id }.reduce(0) { $0 + $1.amount }
            }
            func day(_ date: String) async throws -> Components.Schemas.DailyTracking? {
                try await app.api(token).listDailyTotals(query: .init(from: date, to: date)).ok.body.json.days.first
            }
            #expect(try await points() == 150)

            // (The test clock reads 12:00 UTC.) Edited on a phone at 11:00: 45 min, 400 kcal, moved to the day before.
            let longer = Self.run(minutes: 45, calories: 400, at: "2026-03-01T08:00:00Z")
            let first = try await app.request(
                .post,
                "/api/activities/edits",
                token: token,
                json: Self.edit(longer, madeAt: "2026-03-02T11:00:00Z")
            )
            #expect(first.status == .ok, "\(first.text)")
            let applied = try first.decoded(as: Result.self)
            #expect(applied.applied)
            #expect(applied.activity.id == id)
            #expect(applied.activity.revision == 1)
            #expect(applied.activity.localDate == "2026-03-01")
            #expect(try await points() == 180 + 40)
            #expect(try await day("2026-03-02")?.workouts ?? 0 == 0)
            #expect(try await day("2026-03-01")?.workouts == 1)
            #expect(try await day("2026-03-01")?.distanceMeters == 45 * 150)

            // An older edit (a tablet that was offline, edited at 10:00) changes nothing, and says so.
            let stale = try await app.request(
                .post,
                "/api/activities/edits",
                token: token,
                json: Self.edit(
                    Self.run(minutes: 10, calories: 50, at: "2026-03-02T08:00:00Z"),
                    madeAt: "2026-03-02T10:00:00Z"
                )
            )
            #expect(try stale.decoded(as: Result.self).applied == false)
            #expect(try stale.decoded(as: Result.self).activity.revision == 1)
            // The same edit sent again changes nothing either.
            let again = try await app.request(
                .post,
                "/api/activities/edits",
                token: token,
                json: Self.edit(longer, madeAt: "2026-03-02T11:00:00Z")
            )
            #expect(try again.decoded(as: Result.self).applied == false)

            // A later edit: what the first edit earned is taken back, the new version credited once.
            let latest = try await app.request(
                .post,
                "/api/activities/edits",
                token: token,
                json: Self.edit(
                    Self.run(minutes: 60, calories: 500, at: "2026-03-01T08:00:00Z"),
                    madeAt: "2026-03-02T11:30:00Z"
                )
            )
            #expect(try latest.decoded(as: Result.self).activity.revision == 2)
            #expect(try await points() == 240 + 50)
            let stats = try await app.api(token).getUserStats().ok.body.json
            #expect(stats.totalDistanceMeters == 9_000.0, "\(stats)")

            // The creation sent again (an outbox resending it) is a replay of the edited activity.
            let replay = try await app.request(
                .post,
                "/api/activities",
                token: token,
                json: Self.run(minutes: 30, calories: 300, at: "2026-03-02T08:00:00Z")
            )
            #expect(replay.status == .ok)
            #expect(try replay.decoded(as: Components.Schemas.Activity.self).revision == 2)
            // Deleting it takes back what its last version earned.
            #expect(try await app.request(.delete, "/api/activities/\(id)", token: token).status == .noContent)
            #expect(try await points() == 0)
        }
    }

    @Test(arguments: Backend.available)
    func anEditThatCannotBeIsRefusedByItsFieldAndChangesNothing(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "famefit") { app in
            let token = try await app.onboardedUser()
            #expect(
                try await app.request(
                    .post,
                    "/api/activities",
                    token: token,
                    json: Self.run(minutes: 30, calories: 300, at: "2026-03-02T08:00:00Z")
                ).status == .created
            )
            #expect(
                try await app.request(
                    .post,
                    "/api/activities",
                    token: token,
                    json: ["clientEventId": "open-1", "type": "app_open", "occurredAt": "2026-03-02T08:00:00Z"]
                )
                .status == .created
            )
            let cases: [([String: Any], Int, String?)] = [
                (
                    Self.edit(
                        ["clientEventId": "run-1", "type": "steps", "occurredAt": "2026-03-02T08:00:00Z", "steps": 10],
                        madeAt: "2026-03-02T11:00:00Z"
                    ), 422, "activity.type"
                ),
                (
                    Self.edit(
                        ["clientEventId": "open-1", "type": "app_open", "occurredAt": "2026-03-02T09:00:00Z"],
                        madeAt: "2026-03-02T11:00:00Z"
                    ), 422, "activity.type"
                ),
                (
                    Self.edit(
                        Self.run(minutes: 30, calories: 300, at: "2026-03-02T08:00:00Z", id: "nobody"),
                        madeAt: "2026-03-02T11:00:00Z"
                    ), 404, nil
                ),
                (
                    Self.edit(
                        Self.run(minutes: 30, calories: 300, at: "2026-03-02T08:00:00Z"),
                        madeAt: "2026-03-03T12:00:00Z"
                    ), 422, "modifiedAt"
                ),
                (
                    Self.edit(
                        Self.run(minutes: -5, calories: 300, at: "2026-03-02T08:00:00Z"),
                        madeAt: "2026-03-02T11:00:00Z"
                    ), 422, "activity.durationSeconds"
                ),
            ]
            for (body, status, field) in cases {
                let response = try await app.request(.post, "/api/activities/edits", token: token, json: body)
                #expect(Int(response.status.code) == status, "\(body): \(response.text)")
                if let field {
                    let fields = (try response.problem().fields)
                    #expect(fields.contains(field), "\(fields)")
                }
            }
            let runs = try await app.api(token).listActivities(query: .init(_type: .workout)).ok.body.json.items
            #expect(runs.count == 1 && runs.first?.revision == 0)
        }
    }
}
