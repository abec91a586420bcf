public import FitCircleCore
public import Foundation
import SQLKit

/// A user's streak as stored: the state after the last closed period.
public struct StoredStreak: Equatable, Sendable {
    public var state: Streak
    /// The first day of the last closed period.
    public var evaluatedThrough: LocalDate

    public init(state: Streak, evaluatedThrough: LocalDate) {
        self.state = state
        self.evaluatedThrough = evaluatedThrough
    }
}

extension Transaction {
    /// The queries of streaks and their freezes.
    public var streaks: StreakQueries { StreakQueries(tx: self) }
}

public struct StreakQueries: Sendable {
    let tx: Transaction

    private var sql: any SQLDatabase { self.tx.sql }

    public func streak(of user: User.ID) async throws -> StoredStreak? {
        guard let row = try await self.sql.raw("SELECT * FROM streaks WHERE user_id = \(bind: user.rawValue)").first()
        else { return nil }
        return StoredStreak(
            state: try JSONDecoder().decode(
                Streak.self,
                from: Data(try row.decode(column: "state", as: String.self).utf8)
            ),
            evaluatedThrough: try Transaction.date(row, "evaluated_through")
        )
    }

    public func save(_ streak: StoredStreak, of user: User.ID, at now: Date) async throws {
        try await self.sql.raw(
            """
            INSERT INTO streaks (user_id, state, evaluated_through, updated_at)
            VALUES (\(bind: user.rawValue), \(bind: try Transaction.json(streak.state)), \(bind: streak.evaluatedThrough.iso), \(bind: now))
            ON CONFLICT (user_id) DO UPDATE SET
                state = excluded.state, evaluated_through = excluded.evaluated_through, updated_at = excluded.updated_at
            """
        ).run()
    }

    /// The streak ledger from `from` to `to` inclusive, oldest first.
    public func entries(of user: User.ID, from: LocalDate, to: LocalDate) async throws -> [Streak.Entry] {
        try await self.sql.raw(
            """
            SELECT * FROM streak_entries
            WHERE user_id = \(bind: user.rawValue) AND period >= \(bind: from.iso) AND period <= \(bind: to.iso)
            ORDER BY period
            """
        ).all().map { try self.entry(from: $0) }
    }

    /// The last ledger entry before `period`.
    public func streakEntry(of user: User.ID, before period: LocalDate) async throws -> Streak.Entry? {
        try await self.sql.raw(
            """
            SELECT * FROM streak_entries WHERE user_id = \(bind: user.rawValue) AND period < \(bind: period.iso)
            ORDER BY period DESC LIMIT 1
            """
        ).first().map { try self.entry(from: $0) }
    }

    /// The first period that reached each milestone, by milestone count.
    public func firstMilestones(of user: User.ID) async throws -> [Int: LocalDate] {
        var firsts: [Int: LocalDate] = [:]
        let rows = try await self.sql.raw(
            """
            SELECT milestone, MIN(period) AS period FROM streak_entries
            WHERE user_id = \(bind: user.rawValue) AND milestone IS NOT NULL GROUP BY milestone
            """
        ).all()
        for row in rows {
            firsts[try row.decode(column: "milestone", as: Int.self)] = try Transaction.date(row, "period")
        }
        return firsts
    }

    /// Replaces the ledger from `from` on with `entries`.
    public func replaceEntries(of user: User.ID, from: LocalDate, with entries: [Streak.Entry]) async throws {
        try await self.sql.raw(
            "DELETE FROM streak_entries WHERE user_id = \(bind: user.rawValue) AND period >= \(bind: from.iso)"
        ).run()
        for start in stride(from: 0, to: entries.count, by: 250) {
            let rows = try entries[start..<min(start + 250, entries.count)].map { entry -> SQLQueryString in
                """
                (\(bind: user.rawValue), \(bind: entry.period.iso), \(bind: entry.status.rawValue), \(bind: entry.reason),
                \(bind: entry.count), \(bind: try Transaction.json(entry.state)), \(bind: entry.comeback), \(bind: entry.milestone?.count),
                \(bind: entry.milestone?.badge))
                """
            }
            try await self.sql.raw(
                """
                INSERT INTO streak_entries (user_id, period, status, reason, streak, state, comeback, milestone, milestone_badge)
                VALUES \(rows.joined(separator: ", "))
                """
            ).run()
        }
    }

    /// The periods from `from` to `to` the user asked to have frozen.
    public func freezeRequests(of user: User.ID, from: LocalDate, to: LocalDate) async throws -> Set<LocalDate> {
        Set(
            try await self.sql.raw(
                """
                SELECT period FROM streak_freeze_requests
                WHERE user_id = \(bind: user.rawValue) AND period >= \(bind: from.iso) AND period <= \(bind: to.iso)
                """
            ).all().map { try Transaction.date($0, "period") }
        )
    }

    public func requestFreeze(of user: User.ID, for period: LocalDate, at now: Date) async throws {
        try await self.sql.raw(
            """
            INSERT INTO streak_freeze_requests (user_id, period, requested_at)
            VALUES (\(bind: user.rawValue), \(bind: period.iso), \(bind: now))
            ON CONFLICT (user_id, period) DO NOTHING
            """
        ).run()
    }

    private func entry(from row: any SQLRow) throws -> Streak.Entry {
        let state = try JSONDecoder().decode(
            Streak.self,
            from: Data(try row.decode(column: "state", as: String.self).utf8)
        )
        let statusText = try row.decode(column: "status", as: String.self)
        guard let status = Streak.Entry.Status(rawValue: statusText) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "streak_entries.status holds '\(statusText)'")
            )
        }
        var milestone: StreakPolicy.Milestone?
        if let count = try row.decode(column: "milestone", as: Int?.self) {
            milestone = StreakPolicy.Milestone(
                count: count,
                badge: try row.decode(column: "milestone_badge", as: String?.self) ?? ""
            )
        }
        return Streak.Entry(
            period: try Transaction.date(row, "period"),
            status: status,
            reason: try row.decode(column: "reason", as: String.self),
            state: state,
            comeback: try row.decode(column: "comeback", as: Bool.self),
            milestone: milestone
        )
    }
}
