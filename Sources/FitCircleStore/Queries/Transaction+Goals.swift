public import FitCircleCore
public import Foundation
import SQLKit

extension Transaction {
    /// The queries of daily and weekly goals.
    public var goals: GoalQueries { GoalQueries(tx: self) }
}

public struct GoalQueries: Sendable {
    let tx: Transaction

    private var sql: any SQLDatabase { self.tx.sql }

    /// The user's goals of `span` whose period is from `from` to `to`, oldest first.
    public func list(of user: User.ID, span: Goal.Span, from: LocalDate, to: LocalDate) async throws -> [Goal] {
        try await self.sql.raw(
            """
            SELECT * FROM goals
            WHERE user_id = \(bind: user.rawValue) AND span = \(bind: span.rawValue)
                AND period >= \(bind: from.iso) AND period <= \(bind: to.iso)
            ORDER BY period, type
            """
        ).all().map(Self.goal(from:))
    }

    public func goal(of user: User.ID, id: Goal.ID) async throws -> Goal? {
        try await self.sql.raw(
            "SELECT * FROM goals WHERE user_id = \(bind: user.rawValue) AND id = \(bind: id.rawValue)"
        ).first()
            .map(Self.goal(from:))
    }

    /// Stores goals whose user, span, period and kind have none yet.
    public func insert(_ goals: [Goal], of user: User.ID, at now: Date) async throws {
        guard !goals.isEmpty else { return }
        let rows = goals.map { goal -> SQLQueryString in
            """
            (\(bind: goal.id.rawValue), \(bind: user.rawValue), \(bind: goal.span.rawValue), \(bind: goal.period.iso),
            \(bind: goal.kind.rawValue), \(bind: goal.target), \(bind: goal.basis), \(bind: goal.completedAt), \(bind: now))
            """
        }
        try await self.sql.raw(
            """
            INSERT INTO goals (id, user_id, span, period, type, target, basis, completed_at, created_at)
            VALUES \(rows.joined(separator: ", "))
            ON CONFLICT (user_id, span, period, type) DO NOTHING
            """
        ).run()
    }

    public func updateTarget(of goal: Goal.ID, to target: Double, basis: String) async throws {
        try await self.sql.raw(
            "UPDATE goals SET target = \(bind: target), basis = \(bind: basis) WHERE id = \(bind: goal.rawValue)"
        ).run()
    }

    /// Removes a goal that no longer applies (a weight goal whose circle the user left).
    public func delete(_ goal: Goal.ID, of user: User.ID) async throws {
        try await self.sql.raw(
            "DELETE FROM goals WHERE id = \(bind: goal.rawValue) AND user_id = \(bind: user.rawValue)"
        ).run()
    }

    /// Closes a goal the first time it is seen met.
    public func complete(_ goal: Goal.ID, at now: Date) async throws {
        try await self.sql.raw(
            "UPDATE goals SET completed_at = \(bind: now) WHERE id = \(bind: goal.rawValue) AND completed_at IS NULL"
        ).run()
    }

    /// When the user first saw a week's summary, and what they chose after it.
    public func weeklySummary(of user: User.ID, week: LocalDate) async throws -> (seenAt: Date?, choice: String?)? {
        try await self.sql.raw(
            "SELECT seen_at, choice FROM weekly_summaries WHERE user_id = \(bind: user.rawValue) AND week_start = \(bind: week.iso)"
        ).first().map {
            (try $0.decode(column: "seen_at", as: Date?.self), try $0.decode(column: "choice", as: String?.self))
        }
    }

    public func markWeeklySummarySeen(of user: User.ID, week: LocalDate, at now: Date) async throws {
        try await self.sql.raw(
            """
            INSERT INTO weekly_summaries (user_id, week_start, seen_at) VALUES (\(bind: user.rawValue), \(bind: week.iso), \(bind: now))
            ON CONFLICT (user_id, week_start) DO UPDATE SET seen_at = COALESCE(weekly_summaries.seen_at, excluded.seen_at)
            """
        ).run()
    }

    public func saveWeeklyChoice(_ choice: String, of user: User.ID, week: LocalDate, at now: Date) async throws {
        try await self.sql.raw(
            """
            INSERT INTO weekly_summaries (user_id, week_start, seen_at, choice, chosen_at)
            VALUES (\(bind: user.rawValue), \(bind: week.iso), \(bind: now), \(bind: choice), \(bind: now))
            ON CONFLICT (user_id, week_start) DO UPDATE SET choice = excluded.choice, chosen_at = excluded.chosen_at,
                seen_at = COALESCE(weekly_summaries.seen_at, excluded.seen_at)
            """
        ).run()
    }

    static func goal(from row: any SQLRow) throws -> Goal {
        let span = try row.decode(column: "span", as: String.self)
        let kind = try row.decode(column: "type", as: String.self)
        guard let span = Goal.Span(rawValue: span), let kind = Goal.Kind(rawValue: kind) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "goals row holds span '\(span)', type '\(kind)'")
            )
        }
        return Goal(
            id: Goal.ID(try row.decode(column: "id", as: String.self)),
            span: span,
            period: try Transaction.date(row, "period"),
            kind: kind,
            target: try row.decode(column: "target", as: Double.self),
            basis: try row.decode(column: "basis", as: String.self),
            completedAt: try row.decode(column: "completed_at", as: Date?.self)
        )
    }
}
