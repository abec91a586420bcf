public import FitCircleCore
import SQLKit

extension Transaction {
    /// The queries of a person's stats.
    public var stats: StatQueries { StatQueries(tx: self) }
}

public struct StatQueries: Sendable {
    let tx: Transaction

    private var sql: any SQLDatabase { self.tx.sql }

    /// Lifetime totals of a user from the stored days.
    public func totals(of user: User.ID) async throws -> ActivityTotals {
        let row = try await self.sql.raw(
            """
            SELECT COALESCE(SUM(distance_meters), 0) AS distance, COALESCE(SUM(workouts), 0) AS workouts,
                COALESCE(SUM(steps), 0) AS steps,
                COALESCE(SUM(CASE WHEN steps > 0 OR workouts > 0 THEN 1 ELSE 0 END), 0) AS active_days
            FROM daily_tracking WHERE user_id = \(bind: user.rawValue)
            """
        ).first()
        return ActivityTotals(
            distanceMeters: try row?.decode(column: "distance", as: Double.self) ?? 0,
            activities: try row?.decode(column: "workouts", as: Int.self) ?? 0,
            steps: try row?.decode(column: "steps", as: Int.self) ?? 0,
            activeDays: try row?.decode(column: "active_days", as: Int.self) ?? 0
        )
    }

    /// Personal records per workout type: longest distance, longest duration, fastest pace; over the workouts
    /// of the given visibilities only when `visible` is given (what others may see).
    public func personalRecords(of user: User.ID, visible: Set<ActivityVisibility>? = nil) async throws
        -> [PersonalRecords]
    {
        try await self.sql.raw(
            """
            SELECT workout_type, MAX(distance_meters) AS longest_distance, MAX(duration_seconds) AS longest_duration,
                MIN(CASE WHEN distance_meters > 0 THEN duration_seconds * 1000 / distance_meters END) AS fastest_pace
            FROM activity_events
            WHERE user_id = \(bind: user.rawValue) AND kind = 'workout' AND deleted_at IS NULL \(Transaction.visibility(visible))
            GROUP BY workout_type ORDER BY workout_type
            """
        ).all().compactMap { row in
            guard let type = WorkoutType(rawValue: try row.decode(column: "workout_type", as: String.self)) else {
                return nil
            }
            return PersonalRecords(
                type: type,
                longestDistanceMeters: try row.decode(column: "longest_distance", as: Double?.self),
                longestDurationSeconds: try row.decode(column: "longest_duration", as: Double?.self),
                fastestPaceSecondsPerKilometer: try row.decode(column: "fastest_pace", as: Double?.self)
            )
        }
    }
}

extension StatQueries {
    /// The workout totals others may see of `user`: count, distance and duration of the workouts of the
    /// visibilities given.
    public func workoutTotals(of user: User.ID, visible: Set<ActivityVisibility>) async throws -> (
        workouts: Int, distanceMeters: Double, durationSeconds: Double
    ) {
        let row = try await self.sql.raw(
            """
            SELECT COUNT(*) AS n, COALESCE(SUM(distance_meters), 0.0) AS distance, COALESCE(SUM(duration_seconds), 0.0) AS duration
            FROM activity_events
            WHERE user_id = \(bind: user.rawValue) AND kind = 'workout' AND deleted_at IS NULL \(Transaction.visibility(visible))
            """
        ).first()
        return (
            try row?.decode(column: "n", as: Int.self) ?? 0, try row?.decode(column: "distance", as: Double.self) ?? 0,
            try row?.decode(column: "duration", as: Double.self) ?? 0
        )
    }

    /// The user's latest workouts of the visibilities given, newest first.
    public func recentWorkouts(of user: User.ID, visible: Set<ActivityVisibility>, limit: Int) async throws
        -> [ActivityEvent]
    {
        try await self.sql.raw(
            """
            SELECT * FROM activity_events
            WHERE user_id = \(bind: user.rawValue) AND kind = 'workout' AND deleted_at IS NULL \(Transaction.visibility(visible))
            ORDER BY occurred_at DESC, id DESC LIMIT \(unsafeRaw: String(limit))
            """
        ).all().map { try Transaction.activity(from: $0).event }
    }

}

/// SQL helpers every namespace may use.
extension Transaction {
    /// `AND visibility IN (…)` for the visibilities given (nothing at all when none are), or no condition.
    static func visibility(_ visible: Set<ActivityVisibility>?, column: String = "visibility") -> SQLQueryString {
        guard let visible else { return "" }
        guard !visible.isEmpty else { return "AND 1 = 0" }
        return
            "AND \(unsafeRaw: column) IN (\(SQLList(visible.sorted { $0.rawValue < $1.rawValue }.map { SQLBind($0.rawValue) })))"
    }
}
