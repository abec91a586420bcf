import FitCircleCore
import FitCircleEngine
import FitCircleStore
import FitCircleTesting
import Foundation
import Testing

/// Spec 000's A/B test of daily goal difficulty (issue 24), through the API with the clock moving: people
/// who walk the same by construction meet a conservative goal twice as often as a stretch one, and the
/// read-out finds it; then an A/A test of two identical variants over the same people finds nothing.
struct Spec000ExperimentTests {
    static let zone = "Europe/Paris"
    static let people = 48
    /// What each person walks, a day in three: enough for any goal, for the conservative one only, for none.
    static let pattern = [10_000, 8_000, 3_000]

    static func steps(_ targets: Int) -> [String: Any] {
        ["goals": ["steps": ["sedentaryDefault": targets, "moderateDefault": targets, "introductoryDays": 60]]]
    }

    static func measure(_ results: [String: Any], _ variant: String, _ measure: String) -> [String: Any]? {
        let variants = results["variants"] as? [[String: Any]]
        let measures = variants?.first { $0["name"] as? String == variant }?["measures"] as? [[String: Any]]
        return measures?.first { $0["measure"] as? String == measure }
    }

    @Test(arguments: Backend.available)
    func theReadOutFindsADifferenceMadeByConstructionAndNoneBetweenIdenticalVariants(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let world = World(app, zone: Self.zone)
            world.start(at: "2026-03-02", "07:00")
            let first = LocalDate(iso: "2026-03-02")!
            let ops = try await Member.onboarded("ops@example.com", in: Self.zone, app: app)
            _ = try await Operators(store: app.store).set(true, email: "ops@example.com")
            func make(_ body: [String: Any]) async throws -> String {
                let made = try await app.request(.post, "/api/admin/experiments", token: try await ops.token, json: body)
                #expect(made.status == .created, "\(made.text)")
                return try #require(try made.jsonObject()["id"] as? String)
            }
            func change(_ id: String, _ body: [String: Any]) async throws {
                let changed = try await app.request(.patch, "/api/admin/experiments/\(id)", token: try await ops.token, json: body)
                #expect(changed.status == .ok, "\(changed.text)")
            }
            let difficulty = try await make([
                "name": "goal_difficulty",
                "variants": [
                    ["name": "conservative", "control": true, "overlay": Self.steps(4_000)],
                    ["name": "stretch", "overlay": Self.steps(9_000)],
                ],
            ])
            let identical = try await make([
                "name": "aa_check", "variants": [["name": "a", "overlay": Self.steps(6_000)], ["name": "b", "overlay": Self.steps(6_000)]],
            ])
            try await change(difficulty, ["state": "running"])

            // The operator walks with everyone else: they too are in the experiments.
            var members = [ops]
            for index in 1..<Self.people {
                members.append(try await Member.onboarded("p\(index)@example.com", in: Self.zone, app: app))
            }
            var variantOf: [String: String] = [:]
            for day in 0..<12 {
                if day == 6 {
                    // The difficulty test ends before the sixth midnight; the A/A test plans that day's goals.
                    try await world.run(until: first.adding(days: 5).iso, "23:00")
                    try await change(difficulty, ["state": "stopped"])
                    try await change(identical, ["state": "running"])
                }
                try await world.run(until: first.adding(days: day).iso, "20:00")
                for (index, member) in members.enumerated() {
                    try await member.sync(steps: Self.pattern[(index + day) % 3], "walk-\(day)")
                    let goals = try await app.json("/api/goals/daily", token: try await member.token)
                    let target = (goals["goals"] as? [[String: Any]])?.first { $0["type"] as? String == "steps" }?["target"] as? Double
                    if day == 0 {
                        let config = try await app.request(.get, "/api/config", token: try await member.token).jsonObject()
                        variantOf[member.email] = (config["experiments"] as? [String: String])?["goal_difficulty"]
                    }
                    // Each person's goal is their variant's, wherever it is planned.
                    let expected: Double = day >= 6 ? 6_000 : variantOf[member.email] == "stretch" ? 9_000 : 4_000
                    #expect(target == expected, "\(member.email) day \(day): \(goals)")
                }
            }
            try await world.run(until: first.adding(days: 12).iso, "14:00")

            // The difficulty test: 2 steps goals in 3 met against 1 in 3, with the day's check-in goal (never
            // met here) alongside — 1/3 against 1/6 — found significant.
            let results = try await app.request(.get, "/api/admin/experiments/\(difficulty)/results", token: try await ops.token)
            #expect(results.status == .ok, "\(results.text)")
            let read = try results.jsonObject()
            let conservative = try #require(Self.measure(read, "conservative", "goal_completion"))
            let stretch = try #require(Self.measure(read, "stretch", "goal_completion"))
            let inStretch = variantOf.values.filter { $0 == "stretch" }.count
            #expect(stretch["trials"] as? Int == inStretch * 6 * 2, "\(stretch)")
            #expect(conservative["value"] as? Double == 1.0 / 3, "\(conservative)")
            #expect(stretch["value"] as? Double == 1.0 / 6, "\(stretch)")
            let comparison = try #require(stretch["comparison"] as? [String: Any])
            #expect(comparison["significant"] as? Bool == true, "\(comparison)")
            #expect((comparison["pValue"] as? Double ?? 1) < 0.05)
            #expect((comparison["high"] as? Double ?? 0) < 0, "the difference's interval lies below zero: \(comparison)")
            #expect(stretch["warning"] == nil)
            let exposed = (read["variants"] as? [[String: Any]])?.compactMap { $0["exposed"] as? Int }.reduce(0, +)
            #expect(exposed == Self.people, "\(read)")
            // Everyone came back on the 7th day in both variants: nothing to conclude, and said so.
            let d7 = try #require(Self.measure(read, "stretch", "d7_retention"))
            #expect(d7["value"] as? Double == 1 && d7["warning"] is String, "\(d7)")

            // The A/A test over the same people: identical rules, identical behaviour, no difference.
            let aa = try await app.request(.get, "/api/admin/experiments/\(identical)/results", token: try await ops.token).jsonObject()
            let a = try #require(Self.measure(aa, "a", "goal_completion"))
            let b = try #require(Self.measure(aa, "b", "goal_completion"))
            #expect((a["trials"] as? Int ?? 0) + (b["trials"] as? Int ?? 0) == Self.people * 6 * 2, "\(a) \(b)")
            #expect(a["value"] as? Double == 1.0 / 3 && b["value"] as? Double == 1.0 / 3, "\(a) \(b)")
            let none = try #require(b["comparison"] as? [String: Any])
            #expect(none["significant"] as? Bool == false, "\(none)")
            #expect(((none["low"] as? Double ?? 1) < 0) && ((none["high"] as? Double ?? -1) > 0), "\(none)")
        }
    }
}
