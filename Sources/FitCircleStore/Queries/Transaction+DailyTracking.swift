public import FitCircleCore
public import Foundation
import SQLKit

extension ActivityQueries {
    private var sql: any SQLDatabase { self.tx.sql }
    /// Replaces each user's stored day with the one given.
    public func save(_ days: [(user: User.ID, day: DailyTracking)], at now: Date) async throws {
        for start in stride(from: 0, to: days.count, by: 250) {
            let rows = days[start..<min(start + 250, days.count)].map { user, day -> SQLQueryString in
                """
                (\(bind: user.rawValue), \(bind: day.date.iso), \(bind: day.steps), \(bind: day.syncedSteps),
                \(bind: day.manualSteps), \(bind: day.weightKg), \(bind: day.workouts), \(bind: day.activeMinutes),
                \(bind: day.distanceMeters), \(bind: day.calories), \(bind: day.pushupReps), \(bind: day.waterMilliliters),
                \(bind: day.appOpened), \(bind: day.checkedIn), \(bind: day.checkedInLate), \(bind: day.mood), \(bind: day.energy),
                \(bind: day.previousDaySentiment?.rawValue), \(bind: now))
                """
            }
            try await self.sql.raw(
                """
                INSERT INTO daily_tracking (user_id, local_date, steps, synced_steps, manual_steps, weight_kg, workouts,
                    active_minutes, distance_meters, calories, pushup_reps, water_ml, app_opened, checked_in, checked_in_late,
                    mood, energy, previous_day_sentiment, updated_at)
                VALUES \(rows.joined(separator: ", "))
                ON CONFLICT (user_id, local_date) DO UPDATE SET
                    steps = excluded.steps, synced_steps = excluded.synced_steps, manual_steps = excluded.manual_steps,
                    weight_kg = excluded.weight_kg, workouts = excluded.workouts, active_minutes = excluded.active_minutes,
                    distance_meters = excluded.distance_meters, calories = excluded.calories,
                    pushup_reps = excluded.pushup_reps, water_ml = excluded.water_ml, app_opened = excluded.app_opened,
                    checked_in = excluded.checked_in, checked_in_late = excluded.checked_in_late, mood = excluded.mood,
                    energy = excluded.energy, previous_day_sentiment = excluded.previous_day_sentiment,
                    updated_at = excluded.updated_at
                """
            ).run()
        }
    }

    /// Removes a stored day (replay found it has no events left).
    public func deleteDay(_ date: LocalDate, of user: User.ID) async throws {
        try await self.sql.raw(
            "DELETE FROM daily_tracking WHERE user_id = \(bind: user.rawValue) AND local_date = \(bind: date.iso)"
        ).run()
    }

    /// The stored days of `user` from `from` to `to` inclusive, oldest first.
    public func days(of user: User.ID, from: LocalDate, to: LocalDate) async throws -> [DailyTracking] {
        try await self.sql.raw(
            """
            SELECT * FROM daily_tracking
            WHERE user_id = \(bind: user.rawValue) AND local_date >= \(bind: from.iso) AND local_date <= \(bind: to.iso)
            ORDER BY local_date
            """
        ).all().map(Self.day(from:))
    }

    /// The user's latest weight on a day before `date`, if any.
    public func latestWeight(of user: User.ID, before date: LocalDate) async throws -> Double? {
        try await self.sql.raw(
            """
            SELECT weight_kg FROM daily_tracking
            WHERE user_id = \(bind: user.rawValue) AND local_date < \(bind: date.iso) AND weight_kg IS NOT NULL
            ORDER BY local_date DESC LIMIT 1
            """
        ).first()?.decode(column: "weight_kg", as: Double.self)
    }

    /// The stored step totals of these users' days from `from` to `to` inclusive.
    public func steps(of users: some Collection<User.ID>, from: LocalDate, to: LocalDate) async throws -> [UserDay: Int]
    {
        guard !users.isEmpty else { return [:] }
        let ids = users.map { $0.rawValue as any Encodable & Sendable }
        var steps: [UserDay: Int] = [:]
        let rows = try await self.sql.raw(
            """
            SELECT user_id, local_date, steps FROM daily_tracking
            WHERE user_id IN (\(binds: ids)) AND local_date >= \(bind: from.iso) AND local_date <= \(bind: to.iso)
            """
        ).all()
        for row in rows {
            steps[
                UserDay(
                    user: User.ID(try row.decode(column: "user_id", as: String.self)),
                    date: try Transaction.date(row, "local_date")
                )
            ] =
                try row.decode(column: "steps", as: Int.self)
        }
        return steps
    }

    static func day(from row: any SQLRow) throws -> DailyTracking {
        DailyTracking(
            date: try Transaction.date(row, "local_date"),
            steps: try row.decode(column: "steps", as: Int.self),
            syncedSteps: try row.decode(column: "synced_steps", as: Int.self),
            manualSteps: try row.decode(column: "manual_steps", as: Int.self),
            weightKg: try row.decode(column: "weight_kg", as: Double?.self),
            workouts: try row.decode(column: "workouts", as: Int.self),
            activeMinutes: try row.decode(column: "active_minutes", as: Double.self),
            distanceMeters: try row.decode(column: "distance_meters", as: Double.self),
            calories: try row.decode(column: "calories", as: Double.self),
            pushupReps: try row.decode(column: "pushup_reps", as: Int.self),
            waterMilliliters: try row.decode(column: "water_ml", as: Double.self),
            appOpened: try row.decode(column: "app_opened", as: Bool.self),
            checkedIn: try row.decode(column: "checked_in", as: Bool.self),
            checkedInLate: try row.decode(column: "checked_in_late", as: Bool.self),
            mood: try row.decode(column: "mood", as: Int?.self),
            energy: try row.decode(column: "energy", as: Int?.self),
            previousDaySentiment: try row.decode(column: "previous_day_sentiment", as: String?.self).flatMap(
                CheckIn.Sentiment.init(rawValue:)
            )
        )
    }
}
