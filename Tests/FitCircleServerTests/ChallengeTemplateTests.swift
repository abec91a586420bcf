import FitCircleClient
import FitCircleCore
import FitCircleEngine
import FitCircleTesting
import Foundation
import HTTPTypes
import Testing

/// Spec 002 §1's thirteen templates, each made into a challenge through the API and played with real
/// workouts: one participant does what the template asks, the other one workout less, and settlement
/// tells them apart.
struct ChallengeTemplateTests {
    /// One workout of a plan: the day of the span (its first day is 0), the local start, its size.
    struct Workout {
        var day: Int
        var hour = 12
        var minutes: Double = 20
        var km: Double = 0
        var kcal: Double? = nil
        var type = "walking"
    }

    /// What meets each template.
    static func plan(_ id: String, start: LocalDate) -> [Workout] {
        switch id {
        case "seven-day-step-up": return (0..<7).map { Workout(day: $0, minutes: 30, km: 2) }
        case "weekend-warrior":
            let weekend = (0..<7).filter { [.saturday, .sunday].contains(start.adding(days: $0).weekday) }
            return [
                Workout(day: weekend[0], hour: 10), Workout(day: weekend[0], hour: 15),
                Workout(day: weekend[1], hour: 10),
            ]
        case "five-k-face-off": return [Workout(day: 1, minutes: 30, km: 5.2, type: "running")]
        case "burn-battle": return (0..<5).map { Workout(day: $0, minutes: 45, kcal: 210) }
        case "morning-motivation": return (0..<5).map { Workout(day: $0, hour: 8) }
        case "lunch-break": return (0..<10).map { Workout(day: $0, hour: 12) }
        case "marathon-month": return (0..<10).map { Workout(day: $0, minutes: 30, km: 4.5, type: "running") }
        case "century-club": return [Workout(day: 0, minutes: 55), Workout(day: 1, minutes: 55)]
        case "daily-dozen": return (0..<12).map { Workout(day: $0, hour: 18) }
        case "new-year-new-me": return (0..<31).map { Workout(day: $0) }
        // 2,100 kcal in each of the four weeks; one workout less leaves the last week short.
        case "summer-shred":
            return (0..<4).flatMap { week in (0..<5).map { Workout(day: week * 7 + $0, minutes: 60, kcal: 420) } }
        case "fall-into-fitness": return (0..<17).map { Workout(day: $0, minutes: 30, km: 5, type: "running") }
        case "holiday-hustle": return (0..<24).map { Workout(day: $0) }
        default: return []
        }
    }

    static let zone = TimeZone(identifier: "Europe/Paris")!

    @Test(arguments: Backend.available)
    func spec002_everyTemplateIsWonByWhoDoesWhatItAsks(_ backend: Backend) async throws {
        let profile = try RuleProfileLoader.load(named: "famefit", from: profilesDirectory)
        #expect(profile.challengeTemplates.count == 13)
        for template in profile.challengeTemplates {
            // In season: the day before its start day (or t0, for the others).
            let clock = TestClock()
            if let start = template.season?.start {
                clock.set(
                    LocalDate(year: 2026, month: start.month, day: 1)!.adding(days: -1).start(in: Self.zone)
                        .addingTimeInterval(12 * 3600)
                )
            }
            try await withTestApp(backend, profile: "famefit", clock: clock) { app async throws in
                let ana = try await app.person("ana@example.com")
                let ben = try await app.person("ben@example.com")
                var body: [String: Any] = ["templateId": template.id, "visibility": "public"]
                if template.season == nil {
                    body["startsAt"] = iso8601(
                        LocalDate(app.clock.now, in: Self.zone).adding(days: 1).start(in: Self.zone)
                    )
                }
                let created = try await app.request(
                    .post,
                    "/api/competitions",
                    token: try await ana.token(app),
                    json: body
                )
                #expect(created.status == .created, "\(template.id): \(created.text)")
                let challenge = try created.decoded(as: Components.Schemas.Competition.self)
                let id = challenge.id
                #expect(challenge.templateId == template.id && challenge.templateVersion == template.version)
                _ = try await app.joinChallenge(id, as: ben).ok
                let (startsAt, endsAt) = (challenge.startsAt, challenge.endsAt)
                let first = LocalDate(startsAt, in: Self.zone)
                app.clock.set(endsAt.addingTimeInterval(60))
                let plan = Self.plan(template.id, start: first)
                #expect(!plan.isEmpty, "\(template.id) has a plan")
                for (person, workouts) in [(ana, plan), (ben, Array(plan.dropLast()))] {
                    let events: [[String: Any]] = workouts.enumerated().map { index, workout in
                        var details: [String: Any] = ["type": workout.type, "durationSeconds": workout.minutes * 60]
                        if workout.km > 0 { details["distanceMeters"] = workout.km * 1000 }
                        if let kcal = workout.kcal { details["calories"] = kcal }
                        let at = first.adding(days: workout.day).instant(
                            at: LocalTime(hour: workout.hour, minute: 0)!,
                            in: Self.zone
                        )!
                        return [
                            "clientEventId": "w\(index)", "type": "workout", "source": "app",
                            "occurredAt": iso8601(at), "workout": details,
                        ]
                    }
                    if !events.isEmpty {
                        let sent = try await app.request(
                            .post,
                            "/api/activities/batch",
                            token: try await person.token(app),
                            json: ["events": events]
                        )
                        #expect(sent.status == .ok, "\(template.id): \(sent.text)")
                    }
                }
                app.clock.advance(by: 3 * 3600)
                try await app.runJobs()
                let board = try await app.api(as: ana).getCompetitionLeaderboard(path: .init(id: id)).ok.body.json
                #expect(board.competition.status == .settled, "\(template.id): \(board)")
                let won = Dictionary(uniqueKeysWithValues: board.rows.map { ($0.userId ?? "", $0.won) })
                #expect(won[ana.id] == true && won[ben.id] == false, "\(template.id): \(board)")
            }
        }
    }

    @Test(arguments: Backend.available)
    func spec002_theCatalogOffersSeasonalTemplatesInTheirMonths_countsUse_andTemplateValuesCanBeChanged(
        _ backend: Backend
    ) async throws {
        try await withTestApp(backend, profile: "famefit") { app async throws in
            let ana = try await app.person("ana@example.com")
            // 2 March: no seasonal template is offered.
            let listed = try await app.api(as: ana).listCompetitionTemplates().ok.body.json.items
            #expect(listed.count == 9 && !listed.contains { $0.category == .seasonal }, "\(listed)")
            let summer = try await app.request(
                .post,
                "/api/competitions",
                token: try await ana.token(app),
                json: ["templateId": "summer-shred"]
            )
            #expect(summer.status == .unprocessableContent && summer.text.contains("\"templateId\""), "\(summer.text)")
            let unknown = try await app.request(
                .post,
                "/api/competitions",
                token: try await ana.token(app),
                json: ["templateId": "nope"]
            )
            #expect(unknown.status == .unprocessableContent && unknown.text.contains("\"templateId\""))
            // Made twice, the second time longer and for 10 km: the most used comes first.
            for (days, target) in [(7, 5.0), (14, 10.0)] {
                let made = try await app.request(
                    .post,
                    "/api/competitions",
                    token: try await ana.token(app),
                    json: ["templateId": "five-k-face-off", "durationDays": days, "target": target]
                )
                #expect(made.status == .created, "\(made.text)")
                let rule = try made.decoded(as: Components.Schemas.Competition.self).rule
                #expect(rule.target == target && rule.goal == .firstTo)
                #expect(rule.filter.workoutTypes == ["running"])
            }
            let popular =
                try await app.request(
                    .get,
                    "/api/competitions/templates?category=popular",
                    token: try await ana.token(app)
                )
                .decoded(as: Components.Schemas.CompetitionTemplateList.self).items
            #expect(popular.first?.id == "five-k-face-off" && popular.first?.popularity == 2, "\(popular)")
            #expect(popular.allSatisfy { $0.category == .popular })
        }
    }
}
