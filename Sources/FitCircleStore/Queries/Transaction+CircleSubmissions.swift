public import FitCircleCore
public import Foundation
import SQLKit

/// A circle's submissions: each member's claim of a day, as stored and as read back for boards.
extension CircleQueries {
    private var sql: any SQLDatabase { self.tx.sql }
    public func submission(to circle: FitCircle.ID, of user: User.ID, on date: LocalDate) async throws
        -> CircleSubmission?
    {
        try await self.sql.raw(
            """
            SELECT * FROM circle_submissions
            WHERE circle_id = \(bind: circle.rawValue) AND user_id = \(bind: user.rawValue) AND local_date = \(bind: date.iso)
            """
        ).first().map(Self.submission(from:))
    }

    /// Inserts the claim, or replaces the values of the one made before for the same day.
    public func save(_ submission: CircleSubmission) async throws {
        try await self.sql.raw(
            """
            INSERT INTO circle_submissions (circle_id, user_id, local_date, steps, weight_kg, checkin_streak, submitted_at, updated_at,
                rank_after, rank_change)
            VALUES (\(bind: submission.circleID.rawValue), \(bind: submission.userID.rawValue), \(bind: submission.date.iso),
                \(bind: submission.steps), \(bind: submission.weightKg), \(bind: submission.checkinStreak), \(bind: submission.submittedAt),
                \(bind: submission.updatedAt), \(bind: submission.rankAfter), \(bind: submission.rankChange))
            ON CONFLICT (circle_id, user_id, local_date) DO UPDATE SET steps = excluded.steps, weight_kg = excluded.weight_kg,
                checkin_streak = excluded.checkin_streak, updated_at = excluded.updated_at, rank_after = excluded.rank_after,
                rank_change = excluded.rank_change
            """
        ).run()
    }

    /// The circle's submissions of one day.
    public func submissions(to circle: FitCircle.ID, on date: LocalDate) async throws -> [CircleSubmission] {
        try await self.sql.raw(
            "SELECT * FROM circle_submissions WHERE circle_id = \(bind: circle.rawValue) AND local_date = \(bind: date.iso) ORDER BY submitted_at"
        ).all().map(Self.submission(from:))
    }

    /// The claims of `users` to the circle on `date`.
    public func submissions(to circle: FitCircle.ID, on date: LocalDate, of users: [User.ID]) async throws
        -> [CircleSubmission]
    {
        guard !users.isEmpty else { return [] }
        return try await self.sql.raw(
            """
            SELECT * FROM circle_submissions WHERE circle_id = \(bind: circle.rawValue) AND local_date = \(bind: date.iso)
                AND user_id IN (\(binds: users.map(\.rawValue)))
            """
        ).all().map(Self.submission(from:))
    }

    /// The circles the user submitted to on `date`.
    public func circlesSubmitted(by user: User.ID, on date: LocalDate) async throws -> Set<FitCircle.ID> {
        Set(
            try await self.sql.raw(
                "SELECT circle_id FROM circle_submissions WHERE user_id = \(bind: user.rawValue) AND local_date = \(bind: date.iso)"
            ).all().map { FitCircle.ID(try $0.decode(column: "circle_id", as: String.self)) }
        )
    }

    static func submission(from row: any SQLRow) throws -> CircleSubmission {
        CircleSubmission(
            circleID: FitCircle.ID(try row.decode(column: "circle_id", as: String.self)),
            userID: User.ID(try row.decode(column: "user_id", as: String.self)),
            date: try Transaction.date(row, "local_date"),
            steps: try row.decode(column: "steps", as: Int.self),
            weightKg: try row.decode(column: "weight_kg", as: Double?.self),
            checkinStreak: try row.decode(column: "checkin_streak", as: Int.self),
            submittedAt: try row.decode(column: "submitted_at", as: Date.self),
            updatedAt: try row.decode(column: "updated_at", as: Date.self),
            rankAfter: try row.decode(column: "rank_after", as: Int?.self),
            rankChange: try row.decode(column: "rank_change", as: Int?.self)
        )
    }
}

extension CircleQueries {
    /// One member's claims of the circle from `from` on, by date.
    public func submissions(to circle: FitCircle.ID, of user: User.ID, from: LocalDate) async throws
        -> [CircleSubmission]
    {
        try await self.sql.raw(
            """
            SELECT * FROM circle_submissions WHERE circle_id = \(bind: circle.rawValue) AND user_id = \(bind: user.rawValue)
                AND local_date >= \(bind: from.iso) ORDER BY local_date
            """
        ).all().map(Self.submission(from:))
    }

    /// The circle's claims from `from` to `to` (or on, without `to`), by date then member.
    public func submissions(to circle: FitCircle.ID, from: LocalDate, to: LocalDate?) async throws -> [CircleSubmission]
    {
        let bound: SQLQueryString = to.map { "AND local_date <= \(bind: $0.iso)" } ?? ""
        return try await self.sql.raw(
            """
            SELECT * FROM circle_submissions WHERE circle_id = \(bind: circle.rawValue) AND local_date >= \(bind: from.iso) \(bound)
            ORDER BY local_date, user_id
            """
        ).all().map(Self.submission(from:))
    }
}
